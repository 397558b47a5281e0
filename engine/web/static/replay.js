// The replay page: send the chosen record file to the server and show the viewer it returns.
"use strict";
document.getElementById("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  const error = document.getElementById("error");
  error.textContent = "";
  if (!file) return;
  const answer = await fetch(`/api/replay?name=${encodeURIComponent(file.name)}`, {method: "POST", headers: {"Content-Type": "application/json"}, body: await file.text()});
  if (!answer.ok) { error.textContent = (await answer.json()).error; return; }
  location.href = URL.createObjectURL(new Blob([await answer.text()], {type: "text/html"}));
});
