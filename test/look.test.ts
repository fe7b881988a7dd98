import { it } from 'vitest';
import { KEYS, spawnDevPty } from './helpers/pty.js';
it('look', { timeout: 60000 }, async () => {
  const [cols, rows, root, keys] = (process.env.LOOK ?? '80,24,/work/wt/live,').split(',');
  const dev = spawnDevPty(['dev', '--root', root!, '--port', '0'], { columns: Number(cols), rows: Number(rows), env: { EDITOR: process.env.LOOK_EDITOR } });
  await dev.waitFor(/watching/, 'ready');
  const out: string[] = [dev.text(), '-'.repeat(Number(cols))];
  for (const k of (keys ?? '').split(' ').filter(Boolean)) {
    dev.type((KEYS as Record<string, string>)[k] ?? k);
    await new Promise((r) => setTimeout(r, 400));
    out.push(dev.text(), '-'.repeat(Number(cols)));
  }
  dev.type('q');
  out.push(JSON.stringify(await dev.exit));
  console.log(out.join('\n'));
});
