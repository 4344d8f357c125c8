// The frames a page missed in a Chrome trace, and what ran meanwhile.
// Usage: node scripts/trace-gaps.mjs TRACE.json
// (a trace kept by `KEEP=1 node scripts/trace-typing.mjs URL WORKSPACE.json walk trace`)
// A gap is two animation frames of the page's main thread more than 25 ms apart, within the
// typing (from 0.1 s before the first keystroke to 1.5 s after the last). Each is printed with
// KEY when a keystroke fell in it or in the frame before, the page thread's tasks in it (each
// task's length and its three largest parts) and the busy time of the other threads in it.
import fs from 'fs';
const t = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ev = t.traceEvents || t;
const threadName = new Map(ev.filter(e => e.name === 'thread_name').map(n => [n.pid + ':' + n.tid, n.args.name]));
const key = (e) => e.pid + ':' + e.tid;
// The page's main thread: the renderer main thread with the most events.
const counts = new Map();
for (const e of ev) if (threadName.get(key(e)) === 'CrRendererMain') counts.set(key(e), (counts.get(key(e)) || 0) + 1);
const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
const onMain = ev.filter(e => key(e) === main && e.ph === 'X').sort((a, b) => a.ts - b.ts);
const keys = onMain.filter(e => e.name === 'EventDispatch' && e.args?.data?.type === 'textInput').map(e => e.ts);
const frames = onMain.filter(e => e.name === 'FireAnimationFrame').map(e => e.ts);
const others = ev.filter(e => e.ph === 'X' && e.name === 'RunTask' && key(e) !== main);
const parts = ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'MinorGC', 'MajorGC', 'HandlePostMessage'];
const from = keys[0] - 100000, to = keys[keys.length - 1] + 1500000;
let gaps = 0, nearKey = 0;
for (let i = 1; i < frames.length; i++) {
  const a = frames[i - 1], b = frames[i];
  if (a < from || b > to || b - a < 25000) continue;
  gaps++;
  const near = keys.some(k => k > a - 17000 && k < b);
  if (near) nearKey++;
  const tasks = onMain.filter(e => e.name === 'RunTask' && e.ts < b && e.ts + e.dur > a && e.dur > 100);
  const described = tasks.map(task => {
    const by = new Map();
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur || !parts.includes(e.name)) continue;
      const name = e.name === 'EventDispatch' ? `${e.name}:${e.args?.data?.type}` : e.name;
      by.set(name, (by.get(name) || 0) + e.dur / 1000);
    }
    const top = [...by.entries()].sort((x, y) => y[1] - x[1]).slice(0, 3).map(([n, v]) => `${n} ${v.toFixed(1)}`);
    return `${(task.dur / 1000).toFixed(1)} ms [${top.join(', ')}]`;
  });
  const busy = new Map();
  for (const task of others) {
    const overlap = Math.min(task.ts + task.dur, b) - Math.max(task.ts, a);
    if (overlap > 0) busy.set(threadName.get(key(task)) || key(task), (busy.get(threadName.get(key(task)) || key(task)) || 0) + overlap / 1000);
  }
  const top = [...busy.entries()].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([n, v]) => `${n} ${v.toFixed(0)}`);
  console.log(`gap ${((b - a) / 1000).toFixed(0)} ms ${near ? 'KEY' : '   '} page: ${described.join(' ') || '-'} | others: ${top.join(', ')}`);
}
console.log(`${gaps} gaps, ${nearKey} near a keystroke`);
