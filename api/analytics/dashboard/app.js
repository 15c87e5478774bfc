// The dashboard: reads this API as any client does (with the read token when the
// server asks for one) and draws every chart as inline SVG. Each chart keeps its data in
// the DOM (one <circle> per point with data-family, data-series, data-index and
// data-value), and <body data-ready> is set once every section has loaded or failed.
"use strict";

const FAMILIES = [
  "block_activity", "milestone_size", "active_addresses", "base_tokens", "output_activity",
  "transaction_size", "ledger_outputs", "ledger_size", "address_balance", "unlock_conditions",
  "unclaimed_tokens", "protocol_parameters",
];
const DEFAULT_SPAN = 100; // milestones shown when no range is chosen
const MAX_SPAN = 1000; // the most milestones GET /milestones answers at once
const MAX_PAGES = 50; // pages followed per family, a bound against a cursor that never ends
const TOKEN_KEY = "stardust-indexer.readToken";
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#843c39"];
const SVG = "http://www.w3.org/2000/svg";

// AuthError: the API answered 401, so no token or a wrong one was given.
class AuthError extends Error {}

// takeToken keeps the token of the URL fragment (#token=...) in sessionStorage and
// removes the fragment from the address bar; the input sets it too (see the listener).
function takeToken() {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
}

// api reads a path of this API: the answer's JSON, null on 404, AuthError on 401.
async function api(path) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const resp = await fetch(path, { headers });
  if (resp.status === 401) throw new AuthError("401");
  if (resp.status === 404) return null;
  if (!resp.ok) {
    let detail = "";
    try { detail = (await resp.json()).detail || ""; } catch (_) { /* not JSON */ }
    throw new Error(`${path}: ${resp.status} ${detail}`.trim());
  }
  return resp.json();
}

// el makes an element ("svg:name" for an SVG one) with its attributes and children.
function el(tag, attrs = {}, ...children) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

// flatten turns nested figures into '.'-joined paths: {"nft": {"created_count": 1}} -> nft.created_count.
function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj || {})) {
    const key = prefix ? prefix + "." + k : k;
    if (v !== null && typeof v === "object") flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

// compact formats a number for an axis: 1234567 -> 1.23M.
function compact(n) {
  const units = [[1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  for (const [size, unit] of units) if (Math.abs(n) >= size) return (n / size).toPrecision(3) + unit;
  return String(Math.round(n * 100) / 100);
}

// isAmount: an amount figure (the API gives it as a decimal string), drawn apart from
// the counts, whose scale is far smaller.
function isAmount(name) {
  const last = name.split(".").pop();
  return last.includes("amount") || last === "token_supply";
}

// charts draws a family's series: amounts and the other figures on charts of their own
// when it has both.
function charts(family, series, x0, x1) {
  const names = Object.keys(series).sort();
  const amounts = names.filter(isAmount), counts = names.filter((n) => !isAmount(n));
  if (amounts.length === 0 || counts.length === 0) return lineChart(family, names, series, x0, x1);
  return [el("h4", {}, "amounts"), ...lineChart(family, amounts, series, x0, x1),
    el("h4", {}, "counts"), ...lineChart(family, counts, series, x0, x1)];
}

// lineChart draws the named series ({name: [{x, value}]}, value as the API gave it: a
// number or a decimal string) over [x0, x1] as an SVG with one line and one circle per
// point, and its legend; label formats the x axis' ends.
function lineChart(family, names, series, x0, x1, label = String) {
  const W = 560, H = 200, L = 52, R = 10, T = 10, B = 22;
  let max = 0;
  for (const n of names) for (const p of series[n]) max = Math.max(max, Number(p.value));
  if (max === 0) max = 1;
  const span = Math.max(1, x1 - x0);
  const sx = (x) => L + ((x - x0) / span) * (W - L - R);
  const sy = (v) => T + (1 - Number(v) / max) * (H - T - B);
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, "data-family": family, role: "img" });
  svg.append(el("svg:line", { class: "grid", x1: L, y1: T, x2: W - R, y2: T }),
    el("svg:line", { class: "grid", x1: L, y1: (T + H - B) / 2, x2: W - R, y2: (T + H - B) / 2 }),
    el("svg:line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }),
    el("svg:line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
    el("svg:text", { class: "tick", x: L - 4, y: T + 4, "text-anchor": "end" }, compact(max)),
    el("svg:text", { class: "tick", x: L - 4, y: (T + H - B) / 2 + 4, "text-anchor": "end" }, compact(max / 2)),
    el("svg:text", { class: "tick", x: L - 4, y: H - B, "text-anchor": "end" }, "0"),
    el("svg:text", { class: "tick", x: L, y: H - 6 }, label(x0)),
    el("svg:text", { class: "tick", x: W - R, y: H - 6, "text-anchor": "end" }, label(x1)));
  names.forEach((name, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = series[name].slice().sort((a, b) => a.x - b.x);
    svg.append(el("svg:polyline", { fill: "none", stroke: color, "stroke-width": 1.5,
      points: pts.map((p) => `${sx(p.x).toFixed(1)},${sy(p.value).toFixed(1)}`).join(" ") }));
    for (const p of pts) {
      svg.append(el("svg:circle", { r: 2.5, fill: color, cx: sx(p.x).toFixed(1), cy: sy(p.value).toFixed(1),
        "data-family": family, "data-series": name, "data-index": p.x, "data-value": String(p.value) },
      el("svg:title", {}, `${name} at ${label(p.x)}: ${p.value}`)));
    }
  });
  const legend = el("ul", { class: "legend" });
  names.forEach((name, i) => legend.append(el("li", {},
    el("svg:svg", { width: 10, height: 10 }, el("svg:rect", { width: 10, height: 10, rx: 2, fill: COLORS[i % COLORS.length] })),
    " " + name)));
  return [svg, legend];
}

// chartBox is a figure for one chart, showing "loading" until it is filled.
function chartBox(parent, id, title) {
  const fig = el("figure", { class: "chart", id: "chart-" + id, "data-chart": id, "data-state": "loading" },
    el("h3", {}, title), el("p", { class: "nodata" }, "loading"));
  parent.append(fig);
  return fig;
}

// fill replaces a box's content (its heading kept) and says its state: ok, nodata or error.
function fill(fig, state, caption, ...content) {
  fig.dataset.state = state;
  const heading = fig.querySelector(":scope > h3");
  fig.replaceChildren(...(heading ? [heading] : []), ...content);
  if (caption) fig.append(el("figcaption", {}, caption));
}

function showError(fig, err) {
  if (err instanceof AuthError) throw err;
  fill(fig, "error", "", el("p", { class: "error" }, "error: " + err.message));
}

// familyPoints reads every point of a family over [from, to], following the cursor.
async function familyPoints(family, from, to) {
  const base = `/api/analytics/v2/${family}?startIndex=${from}&endIndex=${to}&pageSize=${MAX_SPAN}`;
  let points = [], coverage = null, cursor = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const ans = await api(cursor ? base + "&cursor=" + encodeURIComponent(cursor) : base);
    if (!ans) break;
    coverage = ans.coverage || coverage;
    points = points.concat(ans.points || []);
    if (!ans.cursor) break;
    cursor = ans.cursor;
  }
  return { points, coverage };
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function coverageText(c) {
  if (!c) return "";
  return "coverage: " + (typeof c === "string" ? c : c.status || JSON.stringify(c));
}

async function drawFamily(fig, family, from, to) {
  try {
    const { points, coverage } = await familyPoints(family, from, to);
    const extra = family === "protocol_parameters" ? await parametersInEffect(to) : [];
    if (points.length === 0 && extra.length === 0) {
      return fill(fig, "nodata", coverageText(coverage), el("p", { class: "nodata" }, "no data"));
    }
    const series = {};
    for (const p of points) {
      for (const [name, value] of Object.entries(flatten(p.figures))) {
        (series[name] = series[name] || []).push({ x: p.milestoneIndex, value });
      }
    }
    const drawn = points.length ? charts(family, series, from, to) : [el("p", { class: "nodata" }, "no change in the range")];
    fill(fig, "ok", `${plural(points.length, "milestone")}; ${coverageText(coverage)}`, ...drawn, ...extra);
  } catch (err) {
    showError(fig, err);
  }
}

// parametersInEffect is a table of the protocol parameters in effect at milestone to:
// those of the newest change at or before it, which may precede the range.
async function parametersInEffect(to) {
  const ans = await api(`/api/analytics/v2/protocol_parameters?startIndex=0&endIndex=${to}&pageSize=1`);
  const p = ans && (ans.points || [])[0];
  if (!p) return [];
  const rows = Object.entries(flatten(p.parameters || p.figures)).map(([k, v]) =>
    el("tr", {}, el("td", {}, k), el("td", {}, String(v))));
  return [el("h4", {}, `in effect at ${to} (since milestone ${p.milestoneIndex})`),
    el("table", { "data-parameters": p.milestoneIndex }, ...rows)];
}

// drawDaily draws the daily active addresses over the days the range's milestones span.
async function drawDaily(fig, fromTs, toTs) {
  try {
    const day = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);
    const ans = await api(`/api/analytics/v2/active_addresses/daily?from=${day(fromTs)}&to=${day(toTs)}`);
    const points = (ans && ans.points) || [];
    if (points.length === 0) return fill(fig, "nodata", "", el("p", { class: "nodata" }, "no data"));
    const rows = points.map((p) => el("tr", {}, el("td", {}, p.date), el("td", {}, String(p.figures.count))));
    fill(fig, "ok", "", el("table", { "data-family": "active_addresses_daily" },
      el("tr", {}, el("th", {}, "day"), el("th", {}, "active addresses")), ...rows));
  } catch (err) {
    showError(fig, err);
  }
}

// drawDistributionDaily draws the closing token distribution of each day the range's
// milestones span: the addresses per balance decade (and with a balance at all).
async function drawDistributionDaily(fig, fromTs, toTs) {
  try {
    const day = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);
    const ans = await api(`/api/analytics/v2/token-distribution?from=${day(fromTs)}&to=${day(toTs)}&granularity=day`);
    const points = (ans && ans.points) || [];
    if (points.length === 0) return fill(fig, "nodata", coverageText(ans && ans.coverage), el("p", { class: "nodata" }, "no data"));
    const series = {};
    for (const p of points) {
      const x = Date.parse(p.date) / 1000;
      for (const [name, value] of Object.entries(flatten(p.figures))) {
        if (!isAmount(name)) (series[name] = series[name] || []).push({ x, value });
      }
    }
    const xs = points.map((p) => Date.parse(p.date) / 1000);
    fill(fig, "ok", `${plural(points.length, "day")}; ${coverageText(ans.coverage)}`,
      ...lineChart("token_distribution_daily", Object.keys(series).sort(), series, Math.min(...xs), Math.max(...xs), day));
  } catch (err) {
    showError(fig, err);
  }
}

// drawRate counts the range's milestones per minute of their timestamps.
async function drawRate(fig, from, to) {
  try {
    const ans = await api(`/milestones?start=${from}&end=${to}`);
    const items = (ans && ans.items) || [];
    if (items.length === 0) return fill(fig, "nodata", "", el("p", { class: "nodata" }, "no data"));
    const perMinute = new Map();
    for (const m of items) {
      const minute = Math.floor(m.timestamp / 60) * 60;
      perMinute.set(minute, (perMinute.get(minute) || 0) + 1);
    }
    const minutes = [...perMinute.keys()].sort((a, b) => a - b);
    const series = { milestones_per_minute: minutes.map((x) => ({ x, value: perMinute.get(x) })) };
    const first = minutes[0], last = Math.max(minutes[minutes.length - 1], first + 60);
    const hhmm = (x) => new Date(x * 1000).toISOString().slice(11, 16);
    fill(fig, "ok", `${plural(items.length, "milestone")} from ${new Date(first * 1000).toISOString()} (UTC minutes)`,
      ...lineChart("milestones_per_minute", ["milestones_per_minute"], series, first, last, hhmm));
    return items;
  } catch (err) {
    showError(fig, err);
  }
  return [];
}

// duration formats seconds as days, hours, minutes and seconds: 90061 -> 1d 1h 1m 1s.
function duration(s) {
  const parts = [[86400, "d"], [3600, "h"], [60, "m"], [1, "s"]].flatMap(([size, unit]) => {
    const n = Math.floor(s / size);
    s -= n * size;
    return n ? [n + unit] : [];
  });
  return parts.length ? parts.join(" ") : "0s";
}

async function drawSync() {
  const box = document.getElementById("sync-state");
  const sync = await api("/sync");
  const rows = [["newest milestone", sync.newest], ["oldest milestone", sync.oldest],
    ["synced ranges", (sync.synced || []).length], ["gaps", (sync.gaps || []).length]];
  if (sync.newest) {
    const ms = await api(`/milestones/${sync.newest}`);
    if (ms) {
      const lag = Math.max(0, Math.round(Date.now() / 1000 - ms.timestamp));
      rows.push(["newest milestone's time", new Date(ms.timestamp * 1000).toISOString()],
        ["lag behind the clock", duration(lag)]);
    }
  }
  box.replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
  box.dataset.state = "ok";
  return sync;
}

async function drawRichest() {
  const box = document.getElementById("richest");
  try {
    const ans = await api("/api/explorer/v2/ledger/richest-addresses?top=20");
    if (!ans || !(ans.top || []).length) return fill(box, "nodata", "", el("p", { class: "nodata" }, "no data"));
    const rows = ans.top.map((a) => el("tr", {}, el("td", {}, a.address), el("td", {}, a.balance)));
    fill(box, "ok", `at ledger index ${ans.ledgerIndex}`, el("table", {},
      el("tr", {}, el("th", {}, "address"), el("th", {}, "balance")), ...rows));
  } catch (err) {
    showError(box, err);
  }
}

async function drawDistribution() {
  const box = document.getElementById("distribution");
  try {
    const ans = await api("/api/explorer/v2/ledger/token-distribution");
    if (!ans || !(ans.distribution || []).length) return fill(box, "nodata", "", el("p", { class: "nodata" }, "no data"));
    const max = Math.max(1, ...ans.distribution.map((d) => Number(d.addressCount)));
    const rows = ans.distribution.map((d) => el("tr", {},
      el("td", {}, `${d.range.start} – ${d.range.end}`), el("td", {}, d.addressCount), el("td", {}, d.totalBalance),
      el("td", {}, el("svg:svg", { width: 200, height: 10 },
        el("svg:rect", { width: (200 * Number(d.addressCount)) / max, height: 10, fill: COLORS[0] })))));
    fill(box, "ok", `at ledger index ${ans.ledgerIndex}`, el("table", {},
      el("tr", {}, el("th", {}, "balance range"), el("th", {}, "addresses"), el("th", {}, "tokens"), el("th", {}, "")),
      ...rows));
  } catch (err) {
    showError(box, err);
  }
}

// chosenRange is the range of the inputs, or the newest DEFAULT_SPAN milestones.
function chosenRange(sync) {
  const fromIn = document.getElementById("from"), toIn = document.getElementById("to");
  let to = toIn.value === "" ? sync.newest : Number(toIn.value);
  let from = fromIn.value === "" ? Math.max(sync.oldest || 0, to - DEFAULT_SPAN + 1) : Number(fromIn.value);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || from > to) {
    throw new Error(`the range ${fromIn.value}..${toIn.value} is not one: from must be at most to`);
  }
  if (to - from + 1 > MAX_SPAN) throw new Error(`the range holds ${to - from + 1} milestones, at most ${MAX_SPAN}`);
  fromIn.value = from;
  toIn.value = to;
  return { from, to };
}

async function drawRange(sync) {
  const rate = document.getElementById("rate"), families = document.getElementById("families");
  rate.replaceChildren();
  families.replaceChildren();
  const { from, to } = chosenRange(sync);
  const rateFig = chartBox(rate, "milestones_per_minute", `milestones ${from}–${to}`);
  const figs = FAMILIES.map((f) => [f, chartBox(families, f, f)]);
  const dailyFig = chartBox(families, "active_addresses_daily", "active_addresses (daily)");
  const distFig = chartBox(families, "token_distribution_daily", "token distribution (daily closing: addresses per balance decade)");
  const [items] = await Promise.all([drawRate(rateFig, from, to), ...figs.map(([f, fig]) => drawFamily(fig, f, from, to))]);
  if (items.length) {
    const first = items[items.length - 1].timestamp, last = items[0].timestamp;
    await Promise.all([drawDaily(dailyFig, first, last), drawDistributionDaily(distFig, first, last)]);
  } else {
    for (const fig of [dailyFig, distFig]) fill(fig, "nodata", "", el("p", { class: "nodata" }, "no data"));
  }
}

// showAuth says why the page stopped: the API's 401 (no token or a wrong one) or another
// error; the boxes still loading say so too.
function showAuth(err) {
  const refused = err instanceof AuthError;
  for (const box of document.querySelectorAll('[data-state="loading"]')) {
    fill(box, refused ? "refused" : "error", "", el("p", { class: "error" }, refused ? "needs the read token" : "not loaded"));
  }
  const msg = document.getElementById("auth-message");
  msg.hidden = false;
  msg.textContent = refused
    ? "The API answered 401 Unauthorized: it needs a read token. Open /dashboard#token=<read token> or enter it above."
    : "Error: " + err.message;
  document.body.dataset.auth = refused ? "refused" : "error";
}

async function load() {
  document.body.removeAttribute("data-ready");
  document.getElementById("auth-message").hidden = true;
  try {
    const sync = await drawSync();
    await Promise.all([drawRange(sync), drawRichest(), drawDistribution()]);
  } catch (err) {
    showAuth(err);
  }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", () => {
  takeToken();
  document.getElementById("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("token");
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    input.value = "";
    load();
  });
  document.getElementById("range-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    load();
  });
  load();
});
