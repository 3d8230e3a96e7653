// lab.js - what the three pages share: the API call, HTML escaping, table export.
"use strict";

// POST (body given) or GET @path; resolves to the parsed JSON or text, rejects
// with the server's one-line error.
async function api(path, body, method) {
  const opt = { method: method || (body === undefined ? "GET" : "POST") };
  if (body !== undefined) {
    opt.body = JSON.stringify(body);
    opt.headers = { "Content-Type": "application/json" };
  }
  const r = await fetch(path, opt);
  const type = r.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await r.json() : await r.text();
  if (!r.ok)
    throw new Error(data && data.error ? data.error : r.status + " " + r.statusText);
  return data;
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function $(id) { return document.getElementById(id); }

function showError(el, e) { el.textContent = e ? String(e.message || e) : ""; }

// A table as rows of cells (strings) -> CSV or Markdown text.
function toCSV(rows) {
  return rows.map(r => r.map(c => /[",\n]/.test(c) ? '"' + c.replace(/"/g, '""') + '"' : c).join(",")).join("\n") + "\n";
}
function toMarkdown(rows) {
  const w = rows[0].map((_, i) => Math.max(3, ...rows.map(r => String(r[i]).length)));
  const line = r => "| " + r.map((c, i) => String(c).padEnd(w[i])).join(" | ") + " |";
  return [line(rows[0]), "| " + w.map(n => "-".repeat(n)).join(" | ") + " |", ...rows.slice(1).map(line)].join("\n") + "\n";
}

// Offer @text as a file download called @name.
function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: type || "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
