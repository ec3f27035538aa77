// Browser end-to-end test of the inspector page: Debian's chromium, driven
// by playwright-core, against a running inspector server.
//
//   E2E_URL=http://127.0.0.1:PORT/?token=... E2E_OUT=/tmp/wayfinder-e2e node inspector.test.mjs
//
// scripts/e2e-inspector.sh starts the server and sets E2E_URL. The checks
// assume the server's Controller runs a command the way the scripted demo
// (daemon/sim/demo/scripted) or the real daemon does: snapshot,
// action and run_finished events, and a saved flow after the first run.
// Prints one line per check and "N passed, M failed"; exits 1 on failure.
//
// Two modes:
//   default     the scripted demo controller: its runs ask a (scripted) LLM,
//               so the prompt and reply panes must fill.
//   E2E_REAL=1  the real engine (`wayfinder serve` on the built-in demo
//               phone, a fresh store, no LLM endpoint, --step-delay so runs
//               last long enough to watch and cancel): no flow at start,
//               the panes must say no model was asked, the second command
//               must be a replay with no LLM call that types its own value.
// E2E_COMMAND..E2E_COMMAND4, E2E_VALUE2 (the value command2's replay must
// type, real mode), E2E_SLOT and E2E_SHOT (the screenshot's file name in
// E2E_OUT) override each mode's defaults.
import { chromium } from "playwright-core";
import { zoomAndPan } from "./graphpanel.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const url = process.env.E2E_URL;
const out = process.env.E2E_OUT || "/tmp/wayfinder-e2e";
const exe = process.env.CHROMIUM || "/usr/bin/chromium";
const real = process.env.E2E_REAL === "1";
const defaults = real ? {
  // commands the built-in demo phone (daemon/sim/demo) supports
  command: 'create a note called "Buy oat milk"',
  command2: 'create a note called "Call the plumber"',
  value2: "Call the plumber", // what the replay of command2 must type
  command3: "set the font size to large",
  command4: "turn on dark mode",
  slot: "Pay the rent",
  shot: "inspector-real.png",
} : {
  command: "create a note titled Buy oat milk",
  command2: "create a note titled Call the plumber",
  command3: "write a note: Water the plants",
  command4: "add a note called Renew passport",
  slot: "Pay the rent",
  shot: "inspector.png",
};
const env = (k, d) => process.env[k] || d;
const command = env("E2E_COMMAND", defaults.command);
const command2 = env("E2E_COMMAND2", defaults.command2);
const command3 = env("E2E_COMMAND3", defaults.command3);
const command4 = env("E2E_COMMAND4", defaults.command4);
const value2 = env("E2E_VALUE2", defaults.value2);
const slotValue = env("E2E_SLOT", defaults.slot);
const shot = env("E2E_SHOT", defaults.shot);
const T = Number(process.env.E2E_TIMEOUT_MS || 30000);

if (!url) {
  console.error("E2E_URL is not set (the inspector URL with ?token=)");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
console.log("# mode: " + (real ? "real daemon (E2E_REAL=1)" : "scripted demo"));

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    const note = await fn();
    passed++;
    console.log("ok   - " + name + (note ? " (" + note + ")" : ""));
    return true;
  } catch (e) {
    failed++;
    console.log("FAIL - " + name + ": " + String(e && e.message ? e.message : e).split("\n")[0]);
    return false;
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }
// skip reports a check this mode cannot make, counted as neither pass nor fail
let skipped = 0;
function skip(name, why) { skipped++; console.log("skip - " + name + ": " + why); }

const profile = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-e2e-chromium-"));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: exe,
  headless: true,
  viewport: { width: 1480, height: 1040 },
  deviceScaleFactor: 1,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const page = ctx.pages()[0] || await ctx.newPage();
page.setDefaultTimeout(T);
const consoleErrors = [];
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push(String(e)));

const text = async (sel) => (await page.locator(sel).first().textContent() || "").trim();
const num = (s) => Number(String(s).replace(/[^0-9.]/g, ""));
// runs table rows as objects, newest first
async function runsTable() {
  return page.$$eval("#runs tbody tr", (trs) => trs.map((tr) => {
    const td = [...tr.querySelectorAll("td")].map((x) => x.textContent.trim());
    return { command: td[0], outcome: td[1], mode: td[2], steps: td[3], llm: td[4], tokens: td[5], ms: td[6], hits: td[7] };
  }));
}

try {
  await check("page loads", async () => {
    const resp = await page.goto(url, { waitUntil: "domcontentloaded" });
    assert(resp && resp.status() === 200, "status " + (resp && resp.status()));
    assert((await page.title()) === "Wayfinder Inspector", "title " + (await page.title()));
  });
  await check("websocket connects", async () => {
    await page.waitForFunction(() => document.querySelector("#conn").textContent.includes("connected"));
  });
  await check("token removed from the address bar", async () => {
    assert(!page.url().includes("token="), page.url());
  });
  await check("hello: graph drawn", async () => {
    await page.waitForFunction(() => { const g = document.querySelector("#graph"); return g.cy && g.cy.nodes().length > 0 && g.querySelector("canvas"); });
    const n = await page.evaluate(() => document.querySelector("#graph").cy.nodes().length);
    assert(n === Number(await page.getAttribute("#graph", "data-screens")), "drawn " + n + " of " + (await page.getAttribute("#graph", "data-screens")));
    return n + " screens";
  });
  if (real) {
    // the graph came with the same hello: a fresh store has no flow yet
    await check("hello: no saved flow in a fresh store", async () => {
      const n = await page.locator("#flows .flow").count();
      assert(n === 0, n + " flows");
      assert((await text("#flows .empty")) === "No saved flows.", "flows pane " + JSON.stringify(await text("#flows")));
      return "0 flows";
    });
  } else {
    await check("hello: saved flows listed", async () => {
      await page.waitForSelector("#flows .flow");
      return (await page.locator("#flows .flow").count()) + " flows";
    });
  }
  const flowsBefore = await page.locator("#flows .flow").count();

  // ---- run a command ----
  await page.fill("#cmd", command);
  // a highlight lasts only until the next screen arrives: record it with a
  // MutationObserver rather than polling for it
  await page.evaluate(() => {
    window.__chosen = [];
    new MutationObserver(() => {
      const c = document.querySelector("#screen svg rect.el.chosen");
      if (c) window.__chosen.push(c.getAttribute("data-index"));
    }).observe(document.querySelector("#screen"), { childList: true, subtree: true });
  });
  await page.click("#run");
  await check("run: the run starts", async () => {
    await page.waitForFunction(() => /running|success|failure|cancel/.test(document.querySelector("#run-pill").textContent));
  });
  await check("run: timeline has step rows", async () => {
    await page.waitForSelector("#timeline tbody tr.step-row");
  });
  await check("run: screen drawn as element boxes", async () => {
    await page.waitForFunction(() => document.querySelectorAll("#screen svg rect.el").length >= 3);
    return (await page.locator("#screen svg rect.el").count()) + " boxes";
  });
  // the engine publishes its choice ("chosen") before the phone acts, so
  // the chosen element is highlighted while the action runs
  await check("run: chosen element highlighted live", async () => {
    await page.waitForFunction(() => window.__chosen.length > 0);
    return "#" + (await page.evaluate(() => window.__chosen[0]));
  });
  await check("run: finishes", async () => {
    await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length >= 1);
    return (await runsTable())[0].outcome;
  });
  await check("run: one timeline row per action", async () => {
    const rows = await page.locator("#timeline tbody tr.step-row").count();
    const steps = num((await runsTable())[0].steps);
    assert(rows >= 1 && rows === steps, rows + " rows for " + steps + " steps");
    const modes = await page.$$eval("#timeline tbody tr.step-row .badge", (b) => b.map((x) => x.textContent));
    return modes.join(",");
  });
  await check("run: totals updated from run_finished", async () => {
    const r = (await runsTable())[0];
    const tokens = await text('#totals [data-k="tokens"] .v');
    const calls = await text('#totals [data-k="llm_calls"] .v');
    assert(tokens !== "–" && num(tokens) === num(r.tokens), "tokens card " + tokens + " vs table " + r.tokens);
    assert(num(calls) === num(r.llm), "LLM calls card " + calls + " vs table " + r.llm);
    assert(num(r.ms) > 0, "latency " + r.ms);
    return r.tokens + " tokens, " + r.llm + " LLM calls, " + r.hits + " cache hits, " + r.ms + " ms";
  });
  if (real) {
    // no LLM endpoint: the graph planner decides, and the panes say so
    await check("run: panes say no model was asked", async () => {
      const r = (await runsTable())[0];
      assert(num(r.llm) === 0 && num(r.tokens) === 0, r.llm + " LLM calls, " + r.tokens + " tokens");
      const p = await text("#prompt"), rep = await text("#reply");
      assert(p === "This command made no LLM call.", "prompt pane " + JSON.stringify(p.slice(0, 60)));
      assert(rep === "", "reply pane " + JSON.stringify(rep.slice(0, 60)));
      return JSON.stringify(p);
    });
  } else {
    await check("run: prompt and reply panes filled", async () => {
      const p = await text("#prompt"), r = await text("#reply");
      assert(p.length > 20 && p !== "—", "prompt " + JSON.stringify(p.slice(0, 40)));
      assert(r.length > 0 && r !== "—", "reply empty");
    });
  }
  await check("run: new flow listed", async () => {
    await page.waitForFunction((n) => document.querySelectorAll("#flows .flow").length > n, flowsBefore);
  });
  await check("graph: current screen and the run's path highlighted", async () => {
    // the scripted demo ends on a screen the explored graph does not have
    // (the new note's editor); the real engine's screens are all in it
    await page.waitForFunction(() => Number(document.querySelector("#graph").getAttribute("data-path")) >= 2);
    const r = await page.evaluate(() => {
      const cy = document.querySelector("#graph").cy;
      return { cur: cy.nodes(".cur").length, path: cy.nodes(".path").length, edges: cy.edges(".path").length };
    });
    assert(r.path >= 2 && r.edges >= 1 && r.cur === (real ? 1 : r.cur), JSON.stringify(r));
    return r.path + " screens, " + r.edges + " transitions on the path";
  });
  await check("graph: zoom and pan", () => zoomAndPan(page));
  await check("graph: click a screen shows it", async () => {
    await page.locator("#graph").scrollIntoViewIfNeeded();
    const cv = await page.locator("#graph canvas").last().boundingBox();
    const n = await page.evaluate(() => {
      const cy = document.querySelector("#graph").cy, node = cy.nodes(".cur")[0] || cy.nodes()[0];
      return { id: node.id(), label: node.data("label"), fp: node.data("fp"), p: node.renderedPosition() };
    });
    await page.mouse.click(cv.x + n.p.x, cv.y + n.p.y);
    await page.waitForSelector("#graph-detail:not([hidden])");
    const d = await text("#graph-detail");
    assert(d.includes(n.fp.slice(0, 16)), "detail " + JSON.stringify(d.slice(0, 80)) + " for " + n.fp);
    const seen = page.locator("#graph-detail button[data-step]");
    if (await seen.count()) { // pins a step of the run that saw it: the screen panel shows it
      const step = await seen.first().getAttribute("data-step");
      await seen.first().click();
      await page.waitForFunction((k) => document.querySelector("#screen-mode").textContent.startsWith("step " + k + " "), step);
      await page.locator("#graph-detail button[data-step=\"" + step + "\"]").click(); // back to live
      await page.waitForFunction(() => document.querySelector("#screen-mode").textContent === "live");
    }
    return n.label.replace("\n", ": ");
  });
  await check("pinning a step highlights its chosen element", async () => {
    const row = page.locator("#timeline tbody tr.step-row").first();
    const step = await row.getAttribute("data-step");
    const want = ((await row.locator("td").nth(2).textContent()).match(/#(\d+)/) || [])[1];
    await row.click();
    await page.waitForSelector("#screen svg rect.el.chosen");
    const got = await page.getAttribute("#screen svg rect.el.chosen", "data-index");
    assert(want === undefined || got === want, "highlighted #" + got + ", timeline says #" + want);
    if (real) { // a pinned step names its own (absent) exchange
      const p = await text("#prompt");
      assert(p.startsWith("Step " + step + " made no LLM call"), "prompt pane " + JSON.stringify(p.slice(0, 60)));
    }
    await row.click(); // back to live
    return "#" + got;
  });

  // ---- the same kind of command again: served from the saved flow ----
  await page.fill("#cmd", command2);
  await page.click("#run");
  await check("second run is served from memory (cache hits, no LLM call)", async () => {
    await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length >= 2);
    const r = (await runsTable())[0];
    assert(num(r.hits) > 0, "cache hits " + r.hits);
    if (real) {
      assert(r.outcome === "success", "outcome " + r.outcome);
      assert(r.mode === "replay", "mode " + r.mode);
      assert(num(r.llm) === 0, r.llm + " LLM calls");
      // --reset-each-run: the replay starts where the learning run did, so
      // it needs no recovery step
      const first = (await runsTable())[1];
      const modes = await page.$$eval("#timeline tbody tr.step-row .badge", (x) => x.map((e) => e.textContent));
      assert(r.steps === first.steps && modes.every((m) => m === "replay"), r.steps + " steps (" + modes.join(",") + ") after " + first.steps);
    }
    return r.outcome + ", " + r.mode + ", " + r.llm + " LLM calls, " + r.hits + " cache hits";
  });
  if (real) {
    await check("second run typed its own value", async () => {
      const acts = await page.$$eval("#timeline tbody tr.step-row td:nth-child(3) .act", (x) => x.map((e) => e.textContent));
      const typed = acts.filter((a) => a.startsWith("input"));
      assert(typed.some((a) => a.includes("“" + value2 + "”")), "inputs: " + (typed.join(" | ") || "none"));
      assert(!typed.some((a) => a.includes("Buy oat milk")), "replayed the first value: " + typed.join(" | "));
      return typed.join(" | ");
    });
  }

  // ---- replay a flow from the list ----
  await check("replay button starts a run", async () => {
    const n = (await runsTable()).length;
    const flow = page.locator("#flows .flow").last();
    await flow.locator("button[data-flow]").click();
    const form = flow.locator("form");
    if (await form.count()) { // a flow with slots asks for their values first
      await form.waitFor({ state: "visible" });
      await form.locator("input").first().fill(slotValue);
      await form.locator("button[type=submit]").click();
    }
    await page.waitForFunction((k) => document.querySelectorAll("#runs tbody tr").length > k, n);
    const r = (await runsTable())[0];
    if (real) {
      assert(r.outcome === "success" && r.mode === "replay", r.outcome + ", mode " + r.mode);
      assert(num(r.llm) === 0, r.llm + " LLM calls");
    }
    return r.outcome + ", " + r.mode;
  });

  // ---- a page opened mid-run shows the run so far ----
  await page.fill("#cmd", command3);
  await page.click("#run");
  await check("page opened mid-run shows the run so far", async () => {
    await page.waitForFunction(() => /running/.test(document.querySelector("#run-pill").textContent) &&
      document.querySelectorAll("#timeline tbody tr.step-row").length >= 1);
    const late = await ctx.newPage();
    try {
      await late.goto(url, { waitUntil: "domcontentloaded" });
      await late.waitForFunction(() => document.querySelectorAll("#timeline tbody tr.step-row").length >= 1 &&
        document.querySelectorAll("#screen svg rect.el").length >= 1, null, { timeout: T });
      const cmd = await late.locator("#run-head .cmd").textContent();
      assert(cmd.includes(command3), "late page shows " + cmd);
      return (await late.locator("#timeline tbody tr.step-row").count()) + " rows at open";
    } finally {
      await late.close();
      await page.waitForFunction(() => !/running/.test(document.querySelector("#run-pill").textContent));
    }
  });
  await check("cancel stops the run", async () => {
    const n = (await runsTable()).length;
    await page.fill("#cmd", command4);
    await page.click("#run");
    await page.waitForFunction(() => /running/.test(document.querySelector("#run-pill").textContent) && !document.querySelector("#cancel").disabled);
    // the real engine's steps are slow (--step-delay): cancel after the first one
    if (real) await page.waitForFunction(() => document.querySelectorAll("#timeline tbody tr.step-row").length >= 1);
    await page.click("#cancel");
    await page.waitForFunction((k) => document.querySelectorAll("#runs tbody tr").length > k, n);
    const r = (await runsTable())[0];
    assert(r.outcome === "cancelled", "outcome " + r.outcome);
    if (real) assert(num(r.steps) >= 1, r.steps + " steps: the cancel came before the first step");
    return r.steps + " steps before the cancel";
  });

  // ---- the screenshot: the first (learning) run, its second step pinned ----
  await check("screenshot", async () => {
    await page.locator("#runs tbody tr").last().click();
    const row = page.locator("#timeline tbody tr.step-row").nth(1);
    const step = await row.getAttribute("data-step");
    await row.click();
    await page.waitForFunction((n) => document.querySelector("#screen-mode").textContent.startsWith("step " + n + " "), step);
    await page.waitForSelector("#screen svg rect.el.chosen");
    await page.evaluate(() => { window.scrollTo(0, 0); document.querySelectorAll(".scroll").forEach((x) => { x.scrollTop = 0; }); });
    const file = path.join(out, shot);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  });
  await check("no errors in the page console", async () => {
    assert(consoleErrors.length === 0, consoleErrors.join(" | "));
  });
} finally {
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
if (skipped) console.log("# " + skipped + " skipped");
console.log(passed + " passed, " + failed + " failed");
process.exit(failed ? 1 : 0);
