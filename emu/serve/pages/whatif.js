// whatif.js - the what-if lab: POST /api/runs with a one-parameter sweep, poll
// GET /api/runs/ID, then show the plot and the compare table of the run.
"use strict";

let scenarios = [], current = null;

function parseValue(v) {
  v = v.trim();
  try { return JSON.parse(v); } catch (e) { return v; }
}

function splitValues(s) {
  // commas inside brackets or quotes belong to the value ([100,1000], "a,b")
  const out = [];
  let depth = 0, q = false, cur = "";
  for (const c of s) {
    if (c === '"') q = !q;
    else if (!q && (c === "[" || c === "{")) depth++;
    else if (!q && (c === "]" || c === "}")) depth--;
    if (c === "," && depth === 0 && !q) { out.push(cur); cur = ""; } else cur += c;
  }
  if (cur.trim()) out.push(cur);
  return out.map(parseValue);
}

function overrides() {
  const set = {};
  const runs = parseInt($("runs").value, 10);
  if (runs > 0) set.runs = runs;
  for (const kv of $("set").value.split(";")) {
    const i = kv.indexOf("=");
    if (i > 0) set[kv.slice(0, i).trim()] = parseValue(kv.slice(i + 1));
  }
  return set;
}

function pickScenario() {
  const sc = scenarios[$("scenario").selectedIndex];
  $("desc").textContent = sc.description;
  $("params").innerHTML = sc.params.map(p => '<option value="' + esc(p) + '">').join("");
  const keys = sc.sweep ? Object.keys(sc.sweep) : [];
  $("param").value = keys.length ? keys[0] : "machine.memory";
  $("values").value = keys.length ? sc.sweep[keys[0]].map(v => typeof v === "string" ? v : JSON.stringify(v)).join(", ") : "";
}

function showPoints(res) {
  const byKernel = {}, labels = [];
  for (const r of res.runs) {
    const lbl = Object.values(r.point).map(v => typeof v === "string" ? v : JSON.stringify(v)).join(" ");
    if (!labels.includes(lbl)) labels.push(lbl);
    const k = byKernel[r.kernel] = byKernel[r.kernel] || {};
    (k[lbl] = k[lbl] || []).push(r.primary.value);
  }
  const unit = res.runs.length ? res.runs[0].primary.name + " (" + res.runs[0].primary.unit + ")" : "";
  let h = '<tr><th class="l">kernel \\ ' + esc(current.x || "point") + "</th>" + labels.map(l => "<th>" + esc(l) + "</th>").join("") + "</tr>";
  for (const [k, pts] of Object.entries(byKernel))
    h += '<tr><td class="l">' + esc(k) + "</td>" + labels.map(l => {
      const v = pts[l] || [];
      const m = v.reduce((a, b) => a + b, 0) / (v.length || 1);
      return '<td data-kernel="' + esc(k) + '" data-x="' + esc(l) + '" data-value="' + m + '">' + m.toPrecision(6) + "</td>";
    }).join("") + "</tr>";
  $("points").innerHTML = h + '<tr><td class="l note" colspan="' + (labels.length + 1) + '">' + esc(unit) + "</td></tr>";
}

async function poll() {
  try {
    const d = await api("/api/runs/" + current.id);
    $("progress").max = d.total;
    $("progress").value = d.done;
    $("status").textContent = d.state + ": " + d.done + "/" + d.total + " simulations, " + d.elapsed.toFixed(1) + " s";
    if (d.state === "running") { current.timer = setTimeout(poll, 300); return; }
    $("cancel").disabled = true;
    $("run").disabled = false;
    if (d.state !== "done") { showError($("error"), d.error); return; }
    current.x = d.x;
    showPoints(d.results);
    $("plot").innerHTML = await api("/api/runs/" + current.id + "/plot.svg");
    const primary = d.results.runs.length ? d.results.runs[0].primary.name : "";
    $("compare").textContent = await api("/api/runs/" + current.id + "/compare?monitors=0&metric=" + encodeURIComponent(primary));
    $("all").href = "/api/runs/" + current.id + "/compare";
    $("all").style.display = "inline";
    $("status").textContent += " - done";
  } catch (e) {
    showError($("error"), e);
    $("run").disabled = false;
  }
}

async function run() {
  showError($("error"), "");
  $("plot").innerHTML = "";
  $("points").innerHTML = "";
  $("compare").textContent = "";
  const body = { scenario: scenarios[$("scenario").selectedIndex].file, set: overrides() };
  if ($("param").value.trim())
    body.sweep = { key: $("param").value.trim(), values: splitValues($("values").value) };
  try {
    const d = await api("/api/runs", body);
    current = { id: d.id };
    $("run").disabled = true;
    $("cancel").disabled = false;
    $("status").textContent = "run " + d.id + " started";
    poll();
  } catch (e) {
    showError($("error"), e);
  }
}

async function cancel() {
  if (!current) return;
  clearTimeout(current.timer);
  try { await api("/api/runs/" + current.id, undefined, "DELETE"); } catch (e) { showError($("error"), e); }
  poll();
}

async function init() {
  scenarios = (await api("/api/list")).scenarios;
  $("scenario").innerHTML = scenarios.map(s => '<option value="' + esc(s.file) + '">' + esc(s.file) + " - " + esc(s.name) + "</option>").join("");
  const def = scenarios.findIndex(s => s.file.endsWith("teaching/trace-policies.json"));
  if (def >= 0) $("scenario").selectedIndex = def;
  $("scenario").onchange = pickScenario;
  pickScenario();
  $("run").onclick = run;
  $("cancel").onclick = cancel;
}

init().catch(e => showError($("error"), e));
