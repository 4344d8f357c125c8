// A CPU profile of the app on a served bundle (run by scripts/profile): two edits of the saved
// workspace (a resource appended to the open file, each waited for until drawn), with `walk`
// the first 4 s of a walk, or with `type` a line typed while the builds it sets off run. Prints the busy time and the self and inclusive time by function;
// FILTER=regex prints only the inclusive times of the functions whose names match.
// Usage: node scripts/profile.mjs URL WORKSPACE.json [edit|walk|type|typewalk]
import { createRequire } from 'module';
// puppeteer-core as lighthouse (scripts/lighthouse) installs it.
const require = createRequire(process.env.LIGHTHOUSE_DIR + '/');
const puppeteer = require('puppeteer-core');
import fs from 'fs';
const [url, saved, what] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH, headless: 'new',
  args: ['--no-sandbox', '--disable-gpu'], defaultViewport: {width: 1366, height: 768}});
const page = await browser.newPage();
await page.goto(url);
await page.evaluate((s) => localStorage.setItem('tfgraph.workspace', s), fs.readFileSync(saved, 'utf8'));
await page.reload();
// A configuration of more than 1,000 vertices opens with its modules collapsed: the edit and
// walk profiles expand them (the whole graph drawn); the typing profile keeps them collapsed.
await page.waitForFunction(() => document.querySelector('#expand-all') && !document.querySelector('.build-progress'), {timeout: 180000});
if (!what.startsWith('type')) {
  await page.evaluate(() => document.querySelector('#expand-all').click());
  // Past the page's drawing limit (`page::scene::MAX_DRAWN`, 5,000 vertices) it says the graph
  // is too big to draw instead: the walk is then profiled without a drawing.
  await page.waitForFunction(() => document.querySelectorAll('.graph-svg g.vertex').length > 1000
    || document.querySelector('.too-big'), {timeout: 120000});
  if (await page.evaluate(() => !!document.querySelector('.too-big'))) {
    console.log('expanded, the graph is too big to draw: profiled without a drawing');
  }
}
await new Promise(r => setTimeout(r, 1500));
const cdp = await page.createCDPSession();
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
if (what === 'walk') {
  await page.evaluate(() => document.querySelector('#walk-play').click());
  await new Promise(r => setTimeout(r, 4000));
} else if (what === 'type' || what === 'typewalk') {
  // Typing at the end of the open file, 30 ms a key, while the builds it sets off run; with
  // `typewalk` the walk plays meanwhile, as in issue 16's e2e measure.
  if (what === 'typewalk') await page.evaluate(() => document.querySelector('#walk-play').click());
  await page.evaluate(() => { const t = document.querySelector('textarea#editor'); t.focus(); t.setSelectionRange(t.value.length, t.value.length); });
  await page.keyboard.type('\n# typed while the graph builds\n', {delay: 30});
  await new Promise(r => setTimeout(r, 1500));
} else {
  for (let k = 0; k < 2; k++) {
    await page.evaluate((k) => new Promise((done) => {
      const ta = document.querySelector('textarea#editor');
      const name = `probe_${k}`;
      ta.value = ta.value + `\nresource "null_resource" "${name}" {}\n`;
      ta.dispatchEvent(new Event('input', {bubbles: true}));
      const poll = () => {
        if (document.querySelector(`.graph-svg g.vertex[data-name='null_resource.${name} (expand)']`))
          requestAnimationFrame(() => setTimeout(() => done(), 0));
        else setTimeout(poll, 2);
      };
      poll();
    }), k);
  }
}
const { profile } = await cdp.send('Profiler.stop');
const byId = new Map(profile.nodes.map(n => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of (n.children || [])) parent.set(c, n.id);
const self = new Map(), incl = new Map();
const name = (n) => { let f = n.callFrame.functionName || '(anon)'; f = f.replace(/::h[0-9a-f]{16}$/, ''); return f.length > 150 ? f.slice(0, 150) : f; };
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i + 1] || 0) / 1000;
  const n = byId.get(profile.samples[i]);
  if (['(idle)', '(program)'].includes(n.callFrame.functionName)) continue;
  total += dt;
  self.set(name(n), (self.get(name(n)) || 0) + dt);
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const f = name(byId.get(id));
    if (!seen.has(f)) { seen.add(f); incl.set(f, (incl.get(f) || 0) + dt); }
  }
}
const top = (m, k) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, k).map(([f, t]) => `${t.toFixed(0).padStart(6)} ms  ${f}`).join('\n');
const flt = process.env.FILTER ? new RegExp(process.env.FILTER) : null; if (flt) { const m = new Map([...incl.entries()].filter(([f]) => flt.test(f))); console.log(`busy ${total.toFixed(0)} ms\n${top(m, 60)}`); } else console.log(`busy ${total.toFixed(0)} ms\n--- self ---\n${top(self, 30)}\n--- inclusive ---\n${top(incl, 70)}`);
await browser.close();
