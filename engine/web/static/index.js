// The start page: open a table with the form's ruleset, players and seed, then go to it.
"use strict";
document.getElementById("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const error = document.getElementById("error");
  error.textContent = "";
  const seedText = String(form.get("seed") || "").trim();
  // Sent as typed: a JavaScript number would round a seed past 2**53 to another seed.
  if (seedText !== "" && !/^\d{1,19}$/.test(seedText)) {
    error.textContent = "the seed must be a whole number (digits only, at most 19)";
    return;
  }
  const seed = seedText === "" ? null : seedText;
  // The ruleset with the options ticked (those typed after it already are not added twice).
  const typed = String(form.get("ruleset") || "").trim();
  const parts = typed.split("+");
  const ruleset = [typed, ...form.getAll("option").filter((name) => !parts.includes(name))].join("+");
  const answer = await fetch("/api/tables", {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({ruleset, players: form.get("players"), seed}),
  });
  const data = await answer.json();
  if (!answer.ok) { error.textContent = data.error; return; }
  location.href = data.url;
});
