// The start page: open a table with the form's ruleset, players and seed, then go to it.
"use strict";
document.getElementById("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const error = document.getElementById("error");
  error.textContent = "";
  const seedText = String(form.get("seed") || "").trim();
  const seed = seedText === "" ? null : Number(seedText);
  if (seed !== null && !Number.isInteger(seed)) { error.textContent = "the seed must be a whole number"; return; }
  const answer = await fetch("/api/tables", {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({ruleset: form.get("ruleset"), players: form.get("players"), seed}),
  });
  const data = await answer.json();
  if (!answer.ok) { error.textContent = data.error; return; }
  location.href = data.url;
});
