// Browser test of the inspector's UI-transition-graph panel on a large
// graph: a recorded app of ../shared/droidtask served by `wayfinder serve`
// (scripts/e2e-inspector.sh, mode "devgraph", picks the app and a command
// of its recorded tasks at run time). Checks that every screen is drawn
// and no two overlap, zoom and pan, a click on a screen shows it, and the
// path of a run is highlighted (answering its question from the page when
// it asks one); saves a screenshot of the enlarged panel.
//
//   E2E_URL=http://127.0.0.1:PORT/?token=... E2E_COMMAND='...' node graph.test.mjs
//
// Prints one line per check and "N passed, M failed"; exits 1 on failure.
import { chromium } from "playwright-core";
import { zoomAndPan } from "./graphpanel.mjs";
import fs from "node:fs";
import path from "node:path";

const url = process.env.E2E_URL, command = process.env.E2E_COMMAND;
const out = process.env.E2E_OUT || "/tmp/wayfinder-e2e";
const minScreens = Number(process.env.E2E_MIN_SCREENS || 40);
const T = Number(process.env.E2E_TIMEOUT_MS || 60000);
if (!url || !command) {
  console.error("E2E_URL and E2E_COMMAND must be set");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    const note = await fn();
    passed++;
    console.log("ok   - " + name + (note ? " (" + note + ")" : ""));
  } catch (e) {
    failed++;
    console.log("FAIL - " + name + ": " + String(e && e.message ? e.message : e).split("\n")[0]);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
const page = await browser.newPage({ viewport: { width: 1480, height: 1040 }, deviceScaleFactor: 1 });
page.setDefaultTimeout(T);
const problems = [];
page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(m.type() + ": " + m.text().slice(0, 160)); });
page.on("pageerror", (e) => problems.push(String(e)));
const cy = (fn, arg) => page.evaluate(([src, a]) => (0, eval)(src)(document.querySelector("#graph").cy, a), [fn.toString(), arg]);
// Cytoscape ignores the wheel for 250 ms after the page scrolled
const canvasBox = async () => { await page.locator("#graph").scrollIntoViewIfNeeded(); await page.waitForTimeout(400); return page.locator("#graph canvas").last().boundingBox(); };

try {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await check("every screen drawn, none overlapping", async () => {
    await page.waitForFunction(() => { const g = document.querySelector("#graph"); return g.cy && g.cy.nodes().length > 0; });
    const r = await cy((c) => {
      const ns = c.nodes();
      let overlaps = 0;
      for (let i = 0; i < ns.length; i++) for (let j = i + 1; j < ns.length; j++) {
        const a = ns[i].boundingBox({ includeLabels: false }), b = ns[j].boundingBox({ includeLabels: false });
        if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps++;
      }
      return { nodes: ns.length, edges: c.edges().length, overlaps };
    });
    const want = Number(await page.getAttribute("#graph", "data-screens"));
    assert(r.nodes === want && r.nodes >= minScreens, r.nodes + " nodes drawn, " + want + " screens, want at least " + minScreens);
    assert(r.overlaps === 0, r.overlaps + " overlapping pairs");
    return r.nodes + " screens, " + r.edges + " transitions";
  });
  await check("zoom and pan", () => zoomAndPan(page, { ticks: 6, factor: 1.2 }));
  await check("a run's path is highlighted", async () => {
    await page.fill("#cmd", command);
    await page.click("#run");
    // a run that stops unsure asks the owner whether it is done: answer it
    // from the page, as an owner would, with the question's first option
    let answered = "";
    await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length >= 1 ||
      document.querySelector("#ask.show button[data-answer]") !== null, null, { timeout: 3 * T });
    if (await page.locator("#ask.show button[data-answer]").count()) {
      answered = await page.getAttribute("#ask.show button[data-answer]", "data-answer");
      await page.click("#ask.show button[data-answer]");
      await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length >= 1, null, { timeout: 3 * T });
    }
    await page.waitForFunction(() => Number(document.querySelector("#graph").getAttribute("data-path")) >= 2);
    const r = await cy((c) => ({ cur: c.nodes(".cur").length, path: c.nodes(".path").length, edges: c.edges(".path").length }));
    assert(r.cur === 1 && r.path >= 2 && r.edges >= 1, JSON.stringify(r));
    const outcome = await page.textContent("#runs tbody tr td:nth-child(2)");
    return r.path + " screens and " + r.edges + " transitions on the path; run " + outcome.trim() + (answered ? "; answered “" + answered + "”" : "");
  });
  await check("enlarge, then a click on a screen shows it", async () => {
    await page.click("#graph-big");
    await page.waitForFunction(() => document.querySelector("#graph").clientWidth > 1000);
    await page.waitForTimeout(500);
    const cv = await canvasBox();
    const n = await cy((c) => { const x = c.nodes(".cur")[0]; return { label: x.data("label"), p: x.renderedPosition() }; });
    await page.mouse.click(cv.x + n.p.x, cv.y + n.p.y);
    await page.waitForSelector("#graph-detail:not([hidden])");
    const seen = await page.locator("#graph-detail button[data-step]").count();
    assert(seen >= 1, "the current screen was not listed as seen by the run");
    const file = path.join(out, "inspector-graph.png");
    await page.screenshot({ path: file });
    return seen + " steps of the run saw it; " + file;
  });
  await check("no errors or warnings in the page console", async () => {
    assert(problems.length === 0, problems.join(" | "));
  });
} finally {
  await browser.close();
}
console.log(passed + " passed, " + failed + " failed");
process.exit(failed ? 1 : 0);
