// Checks of the inspector's graph panel shared by inspector.test.mjs and
// graph.test.mjs. The panel keeps its Cytoscape instance on #graph.cy.

// zoomAndPan scrolls the panel into view, zooms in with the mouse wheel
// (ticks notches over the middle of the graph), drags empty space, then
// presses Fit. It throws when the zoom did not grow by factor or the drag
// did not pan; it returns a summary.
export async function zoomAndPan(page, { ticks = 4, factor = 1.1 } = {}) {
  const cy = (fn, arg) => page.evaluate(([src, a]) => (0, eval)(src)(document.querySelector("#graph").cy, a), [fn.toString(), arg]);
  await page.locator("#graph").scrollIntoViewIfNeeded();
  const cv = await page.locator("#graph canvas").last().boundingBox();
  const z0 = await cy((c) => c.zoom());
  await page.mouse.move(cv.x + cv.width / 2, cv.y + cv.height / 2);
  await page.waitForTimeout(400); // Cytoscape ignores the wheel for 250 ms after the page scrolled
  for (let i = 0; i < ticks; i++) { await page.mouse.wheel(0, -120); await page.waitForTimeout(60); }
  await page.waitForTimeout(200);
  const zIn = await cy((c) => c.zoom());
  if (!(zIn > z0 * factor)) throw new Error("zoom " + z0 + " -> " + zIn + " after " + ticks + " wheel notches");
  const p0 = await cy((c) => c.pan());
  // drag on empty space: a point with no node under it
  const spot = await cy((c) => {
    for (let y = 10; y < c.height(); y += 10) for (let x = 10; x < c.width(); x += 10)
      if (!c.nodes().some((n) => { const b = n.renderedBoundingBox(); return x >= b.x1 - 4 && x <= b.x2 + 4 && y >= b.y1 - 4 && y <= b.y2 + 4; })) return { x, y };
    return null;
  });
  if (!spot) throw new Error("no empty spot to drag");
  await page.mouse.move(cv.x + spot.x, cv.y + spot.y);
  await page.mouse.down();
  await page.mouse.move(cv.x + spot.x + 50, cv.y + spot.y + 25, { steps: 6 });
  await page.mouse.up();
  const p1 = await cy((c) => c.pan());
  if (!(Math.abs(p1.x - p0.x) > 20)) throw new Error("pan " + JSON.stringify(p0) + " -> " + JSON.stringify(p1));
  await page.click("#graph-fit");
  const z1 = await cy((c) => c.zoom());
  return "zoom " + z0.toFixed(2) + " -> " + zIn.toFixed(2) + ", pan by " + Math.round(p1.x - p0.x) + "," + Math.round(p1.y - p0.y) + ", fit " + z1.toFixed(2);
}
