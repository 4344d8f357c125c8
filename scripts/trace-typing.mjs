// Typing latency, frame rate and what the page's long tasks are made of while a line is typed into a large saved workspace
// (three phrases, 30 ms a key unless DELAY=MS says, 0.4 s apart, as issue 16's e2e measure types), with `walk` while
// the walk plays: a Chrome trace of the page's main thread, each task over 50 ms listed with its
// largest parts (script, style, layout, paint, layerize, GC). See docs/worker.md.
// Usage (puppeteer-core as scripts/lighthouse installs it):
//   LIGHTHOUSE_DIR="$(npm root -g)/lighthouse" node scripts/trace-typing.mjs URL WORKSPACE.json [walk|nowalk] [trace]
// (the trace slows the page: its figures are taken without it)
// with the bundle served by scripts/serve-dist.mjs and WORKSPACE.json as scripts/profile makes it.
import { createRequire } from 'module';
const require = createRequire(process.env.LIGHTHOUSE_DIR + '/');
const puppeteer = require('puppeteer-core');
import fs from 'fs';
const [url, ws, walk, trace] = process.argv.slice(2);
const TRACE = `${process.env.TMPDIR || '/tmp'}/tfgraph-trace-${process.pid}.json`;
const b = await puppeteer.launch({executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new']});
const p = await b.newPage();
await p.setViewport({width: 1400, height: 900});
await p.goto(url, {waitUntil: 'load'});
await p.evaluate((w) => localStorage.setItem('tfgraph.workspace', w), fs.readFileSync(ws, 'utf8'));
await p.reload({waitUntil: 'load'});
await p.waitForFunction(() => document.querySelector('#expand-all') && !document.querySelector('.build-progress'), {timeout: 120000});
await new Promise(r => setTimeout(r, 1000));
if (trace === 'trace') await p.tracing.start({path: TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing']});
// Each keystroke timed from its input event to the frame after it, every frame counted, the
// long tasks observed (the e2e test's measure).
// CSS=... injects a style sheet (to see what a part of the page costs by hiding it); PRESTART=MS
// starts the walk that long before the measure, which then counts only the walk's frames.
if (process.env.CSS) await p.addStyleTag({content: process.env.CSS});
const prestart = Boolean(process.env.PRESTART) && walk === 'walk';
if (prestart) {
  await p.evaluate(() => document.querySelector('#walk-play').click());
  await new Promise(r => setTimeout(r, Number(process.env.PRESTART)));
}
await p.evaluate((walk, prestart) => {
  window.__typing = {lat: [], frames: 0, building: 0, t0: performance.now(), on: true, long: []};
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__typing.long.push(e.duration); }).observe({type: 'longtask'});
  const ta = document.querySelector('textarea#editor');
  ta.addEventListener('input', (e) => { const t = e.timeStamp; requestAnimationFrame(() => setTimeout(() => window.__typing.lat.push(performance.now() - t), 0)); });
  const tick = () => { const s = window.__typing; if (!s.on) return; s.frames++; if (document.querySelector('.build-progress')) s.building++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  if (walk === 'walk' && !prestart) document.querySelector('#walk-play').click();
  ta.focus(); ta.setSelectionRange(ta.value.length, ta.value.length);
}, walk, prestart);
for (const burst of ['\n# typed while', ' the graph', ' builds\n']) {
  await p.keyboard.type(burst, {delay: Number(process.env.DELAY ?? 30)});
  await new Promise(r => setTimeout(r, 400));
}
await new Promise(r => setTimeout(r, 1000));
const [lat, frames, building, ms, long] = await p.evaluate(() => { const s = window.__typing; s.on = false; return [s.lat, s.frames, s.building, performance.now() - s.t0, s.long]; });
if (trace === 'trace') await p.tracing.stop();
lat.sort((a, b) => a - b);
console.log(`${lat.length} keystrokes, input to next frame ${lat[lat.length >> 1].toFixed(0)} ms median (${lat[0].toFixed(0)}–${lat[lat.length - 1].toFixed(0)}); ${(frames * 1000 / ms).toFixed(1)} frames/s over ${(ms / 1000).toFixed(1)} s, a build under way in ${(building * 100 / frames).toFixed(0)}%; long tasks ${long.length}, ${long.reduce((a, b) => a + b, 0).toFixed(0)} ms in all, the longest ${Math.max(0, ...long).toFixed(0)} ms`);
await b.close();
if (trace !== 'trace') process.exit(0);
const t = JSON.parse(fs.readFileSync(TRACE, 'utf8'));
const ev = t.traceEvents || t;
// The renderer main thread: the thread named CrRendererMain with the most events.
const names = ev.filter(e => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const counts = new Map();
for (const e of ev) if (names.some(n => n.pid === e.pid && n.tid === e.tid)) counts.set(e.pid + ':' + e.tid, (counts.get(e.pid + ':' + e.tid) || 0) + 1);
const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
const onMain = ev.filter(e => (e.pid + ':' + e.tid) === main && e.ph === 'X');
const tasks = onMain.filter(e => e.name === 'RunTask' && e.dur > 50000).sort((a, b) => a.ts - b.ts);
console.log(`the trace: ${tasks.length} tasks over 50 ms, ${(tasks.reduce((a, e) => a + e.dur, 0) / 1000).toFixed(0)} ms`);
for (const task of tasks) {
  const inside = onMain.filter(e => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
  const by = new Map();
  for (const e of inside) {
    if (!['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'MajorGC', 'MinorGC', 'V8.GC_MARK_COMPACTOR', 'ParseHTML', 'HitTest', 'v8.callFunction', 'UpdateLayer', 'RasterTask', 'IntersectionObserverController::computeIntersections'].includes(e.name)) continue;
    by.set(e.name, (by.get(e.name) || 0) + e.dur / 1000);
  }
  const fn = inside.filter(e => e.name === 'FunctionCall').map(e => (e.args?.data?.functionName || '') ).filter(Boolean);
  console.log(`${(task.dur / 1000).toFixed(0)} ms: ` + [...by.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ') + (fn.length ? ` [${[...new Set(fn)].slice(0, 4).join(' ')}]` : ''));
}
// KEEP=1 keeps the trace (for scripts/trace-gaps.mjs) and prints its path.
if (process.env.KEEP) console.log(`trace kept: ${TRACE}`); else fs.unlinkSync(TRACE);
