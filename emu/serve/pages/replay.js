// replay.js - the replay lab: POST /api/replay, one step table per (policy, frames).
"use strict";

let lastRuns = [];

function framesList() {
  return $("frames").value.split(/[\s,]+/).filter(x => x).map(x => parseInt(x, 10));
}

function chosenPolicies() {
  return [...document.querySelectorAll("#policies input:checked")].map(x => x.value);
}

// One cell of the frame table: the page, CLOCK's bit, OPT's distance.
function cell(s, f, prev) {
  const p = s.frames[f];
  if (p === null) return "<td></td>";
  let cls = [];
  if (p === s.ref) cls.push(s.fault ? "fault new" : "hit");
  if (s.hand !== undefined && s.hand === f) cls.push("hand");
  let extra = "";
  if (s.ref_bits && s.ref_bits[f] === 1) extra += "<sup>1</sup>";
  if (s.next_use) extra += "<sub>" + (s.next_use[f] === null ? "&infin;" : s.next_use[f]) + "</sub>";
  return '<td class="' + cls.join(" ") + '">' + esc(p) + extra + "</td>";
}

function render(runs) {
  lastRuns = runs;
  const totals = $("totals");
  totals.querySelectorAll("tr.row").forEach(r => r.remove());
  const box = $("tables");
  box.innerHTML = "";
  for (const r of runs) {
    const tr = document.createElement("tr");
    tr.className = "row";
    tr.dataset.policy = r.policy;
    tr.dataset.frames = r.frames;
    tr.innerHTML = '<td class="l">' + esc(r.policy) + "</td><td>" + r.frames + '</td><td class="faults">' +
      r.faults + "</td><td>" + r.hits + "</td><td>" + r.miss_ratio.toFixed(3) + "</td>";
    totals.appendChild(tr);
    let h = '<div class="panel" data-policy="' + esc(r.policy) + '" data-frames="' + r.frames + '" data-faults="' +
      r.faults + '"><h3>' + esc(r.policy.toUpperCase()) + ", " + r.frames + " frames: <span class=\"total\">" +
      r.faults + " faults</span>, " + r.hits + " hits</h3><table class=\"steps\"><tr><th>ref</th>";
    for (const s of r.steps) h += "<th>" + esc(s.ref) + "</th>";
    h += "</tr>";
    for (let f = 0; f < r.frames; f++) {
      h += "<tr><th>frame " + f + "</th>";
      for (const s of r.steps) h += cell(s, f);
      h += "</tr>";
    }
    h += "<tr><th>fault</th>" + r.steps.map(s => "<td>" + (s.fault ? "F" : "") + "</td>").join("") + "</tr>";
    h += "<tr><th>evicted</th>" + r.steps.map(s => "<td>" + (s.victim === null ? "" : esc(s.victim)) + "</td>").join("") + "</tr>";
    if (r.steps.length && r.steps[0].hand !== undefined)
      h += "<tr><th>hand</th>" + r.steps.map(s => "<td>" + s.hand + "</td>").join("") + "</tr>";
    box.insertAdjacentHTML("beforeend", h + "</table></div>");
  }
}

async function replay(body) {
  showError($("error"), "");
  try {
    const d = await api("/api/replay", body);
    render(d.runs);
  } catch (e) {
    showError($("error"), e);
    render([]);
  }
}

function run() {
  replay({ refs: $("refs").value, frames: framesList(), policies: chosenPolicies() });
}

// The export: one block per table, rows = ref, frames, fault; then the totals.
function exportRows() {
  const rows = [];
  for (const r of lastRuns) {
    rows.push([r.policy + " " + r.frames + " frames", ...r.steps.map(s => String(s.ref))]);
    for (let f = 0; f < r.frames; f++)
      rows.push(["frame " + f, ...r.steps.map(s => s.frames[f] === null ? "" : String(s.frames[f]))]);
    rows.push(["fault", ...r.steps.map(s => s.fault ? "F" : "")]);
    rows.push(["faults " + r.faults, ...r.steps.map(() => "")]);
  }
  return rows;
}

function doExport(kind) {
  if (!lastRuns.length) return;
  const rows = exportRows();
  const text = kind === "csv" ? toCSV(rows) : toMarkdown(rows);
  const t = $("export");
  t.style.display = "block";
  t.value = text;
  download(kind === "csv" ? "replay.csv" : "replay.md", text, kind === "csv" ? "text/csv" : "text/markdown");
}

async function init() {
  const list = await api("/api/list");
  const pol = $("policies");
  for (const m of list.reclaim.filter(m => m.replay)) {
    const on = ["fifo", "lru", "clock", "opt"].includes(m.name);
    pol.insertAdjacentHTML("beforeend", '<label title="' + esc(m.desc) + '"><input type="checkbox" value="' +
      esc(m.name) + '"' + (on ? " checked" : "") + "> " + esc(m.name) + "</label>");
  }
  document.querySelectorAll("button.classic").forEach(b => b.onclick = () => { $("refs").value = b.dataset.refs; run(); });
  $("run").onclick = run;
  $("belady").onclick = () => {
    $("refs").value = "1,2,3,4,1,2,5,1,2,3,4,5";
    $("frames").value = "3,4";
    document.querySelectorAll("#policies input").forEach(x => x.checked = x.value === "fifo");
    run();
  };
  $("csv").onclick = () => doExport("csv");
  $("md").onclick = () => doExport("md");
  const ex = (await api("/api/exercises")).exercises.filter(x => x.lab === "replay");
  for (const [i, x] of ex.entries())
    $("exercise").insertAdjacentHTML("beforeend", '<option value="' + i + '">' + esc(x.title) + "</option>");
  $("exercise").onchange = () => {
    const x = ex[$("exercise").value];
    if (!x) { $("question").textContent = ""; return; }
    $("question").innerHTML = "<b>" + esc(x.question) + "</b> <details><summary>answer</summary>" + esc(x.answer) + "</details>";
    $("refs").value = x.request.refs;
    $("frames").value = [].concat(x.request.frames).join(",");
    document.querySelectorAll("#policies input").forEach(p => p.checked = x.request.policies.includes(p.value));
    run();
  };
  run();
}

init().catch(e => showError($("error"), e));
