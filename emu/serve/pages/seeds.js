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
      const cells = c.cells || [];
      h += '<tr class="claim" data-seed="' + esc(s.seed) + '" data-claim="' + esc(c.id) + '" data-verdict="' + esc(c.verdict) + '">' +
        '<td class="l"><a href="/docs/seeds/' + esc(s.seed) + '.md" title="' + esc(s.title || "") + '">' + esc(s.seed) + "</a></td>" +
        '<td class="l">' + esc(c.id) + '</td><td class="l">' + esc(c.text) + "</td>" +
        "<td>" + cells.map(x => esc(side(x.published))).join("<br>") + "</td>" +
        "<td>" + cells.map(x => esc(side(x.emulated))).join("<br>") + "</td>" +
        '<td class="l ' + verdictClass(c.verdict) + '" title="' + esc(c.detail || "") + '">' + esc(c.verdict) + "</td></tr>";
    }
  }
  $("summary").innerHTML = sums.map(x => "<p>" + x + "</p>").join("");
  $("claims").innerHTML = h;
}

init();
