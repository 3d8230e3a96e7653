// seeds.js - the seeds page: GET /api/seeds (results/reproduce.json), one row per claim.
"use strict";

function num(v) {
  if (v === null || v === undefined) return "";
  return Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(4)).toString();
}

// "32 vs 75 (-57.3%)": kernel vs baseline and the relative change.
function side(x) {
  if (!x || x.value === null || x.value === undefined) return "";
  const pct = (x.value * 100).toFixed(1) + "%";
  if (x.kernel === null || x.kernel === undefined) return pct;
  return num(x.kernel) + " vs " + num(x.baseline) + " (" + (x.value > 0 ? "+" : "") + pct + ")";
}

function verdictClass(v) {
  return v === "reproduced" ? "v-reproduced" : v === "not reproduced" ? "v-not-reproduced" : "v-other";
}

// What a claim needs of cell @i, from its detail line ("... (need +30.0% .. +10000.0%)").
function need(c, i) {
  const part = (c.detail || "").split("; ")[i] || "";
  const m = part.match(/\(need ([^)]*)\)/);
  return m ? "need " + m[1] : "";
}

// One line per cell: "ROW: KERNEL vs BASELINE (CHANGE)".
function cellLines(c, which) {
  return (c.cells || []).map((x, i) => {
    const v = side(x[which]) || (which === "published" ? "- (" + (need(c, i) || "no number") + ")" : "-");
    return (c.cells.length > 1 && x.row ? esc(x.row) + ": " : "") + esc(v);
  }).join("<br>");
}

async function init() {
  let d;
  try {
    d = await api("/api/seeds");
  } catch (e) {
    showError($("error"), e);
    return;
  }
  let h = '<tr><th class="l">seed</th><th class="l">claim</th><th class="l">published claim</th><th>published</th><th>emulated</th><th class="l">verdict</th></tr>';
  const sums = [];
  for (const s of d.seeds) {
    if (s.summary)
      sums.push('<a href="/docs/seeds/' + esc(s.seed) + '.md">seed ' + esc(s.seed) + "</a>: " +
        Object.entries(s.summary).map(([k, n]) => n + " " + k.replace(/_/g, " ")).join(", "));
    for (const c of s.claims || []) {
      h += '<tr class="claim" data-seed="' + esc(s.seed) + '" data-claim="' + esc(c.id) + '" data-verdict="' + esc(c.verdict) + '">' +
        '<td class="l"><a href="/docs/seeds/' + esc(s.seed) + '.md" title="' + esc(s.title || "") + '">' + esc(s.seed) + "</a></td>" +
        '<td class="l">' + esc(c.id) + '</td><td class="l">' + esc(c.text) + "</td>" +
        '<td class="num">' + cellLines(c, "published") + "</td>" +
        (c.cells && c.cells.length ? '<td class="num">' + cellLines(c, "emulated") + "</td>"
          : '<td class="l note">' + esc(c.detail || "") + "</td>") +
        '<td class="l ' + verdictClass(c.verdict) + '" title="' + esc(c.detail || "") + '">' + esc(c.verdict) + "</td></tr>";
    }
  }
  $("summary").innerHTML = sums.map(x => "<p>" + x + "</p>").join("");
  $("claims").innerHTML = h;
}

init();
