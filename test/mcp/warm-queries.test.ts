/**
 * The background warm-up of what the first `document_lookup` needs (issue 18.4), scheduled against a real
 * catalog store: it runs in slices with turns of the event loop between them, says when the newest generation is
 * warm (again after each change), stops when told, and what it warmed answers the lookup a fresh build answers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalogQueries } from '../../src/core/queries.js';
import { searchDocuments } from '../../src/core/search.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { createQuietGate, type WarmReport, warmQueries, warmWhenQuiet } from '../../src/mcp/warm-queries.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

let project: TempProject | undefined;
afterEach(() => {
  project?.cleanup();
  project = undefined;
});

/** The fixture with `count` more documents, so that a warm-up takes many slices. */
function largeProject(count: number): TempProject {
  const created = copyFixture('valid');
  for (let index = 0; index < count; index++) {
    const sections = Array.from(
      { length: 4 },
      (_, at) =>
        `## Part ${at} of guide ${index}\n\n${`word${index % 97} release token migrate `.repeat(40)}`,
    ).join('\n\n');
    created.write(
      `knowledge/documents/any/guides/extra-${index}.md`,
      `---\ntitle: Extra guide ${index}\ndescription: Extra guide number ${index}.\n---\n\n# Extra guide ${index}\n\n${sections}\n`,
    );
  }
  return created;
}

/** Catalog queries that count their `warm` slices. */
function countingQueries() {
  const queries = createCatalogQueries();
  let count = 0;
  const counted = {
    ...queries,
    warm: (catalog: Parameters<typeof queries.warm>[0], budget: number) => {
      count++;
      return queries.warm(catalog, budget);
    },
  };
  return { queries, counted, calls: () => count };
}

describe('warming the catalog queries in the background', () => {
  it('warms in many slices, yielding between them, then after each change, and stops when told', async () => {
    project = largeProject(150);
    const store = createCatalogStore({ root: project.root });
    const { queries, counted, calls } = countingQueries();
    const reports: WarmReport[] = [];
    let turns = 0;
    // Another task on the loop: it runs between the slices, so it turns while the warm-up is under way.
    let spinning: NodeJS.Immediate | undefined;
    const spin = (): void => {
      turns++;
      spinning = setImmediate(spin);
    };
    spin();
    let warmed!: () => void;
    const first = new Promise<void>((resolve) => {
      warmed = resolve;
    });
    const stop = warmQueries(store, counted, {
      sliceMs: 0.05,
      onWarm: (report) => {
        reports.push(report);
        warmed();
      },
    });
    try {
      await first;
      expect(reports).toHaveLength(1);
      expect(reports[0]!.generation).toBe(store.current().number);
      expect(reports[0]!.slices).toBeGreaterThan(3);
      expect(calls()).toBe(reports[0]!.slices);
      expect(turns).toBeGreaterThan(reports[0]!.slices / 2);
      // Nothing left: a lookup now answers what a fresh build answers.
      const { documents } = store.current().catalog;
      expect(queries.warm(store.current().catalog, 1)).toBe(true);
      expect(queries.searchDocuments(documents, 'word5 release')).toEqual(
        searchDocuments(documents, 'word5 release'),
      );

      // A save: the new generation is warmed too (a patch), in its own report.
      project.write(
        'knowledge/documents/any/guides/extra-3.md',
        '---\ntitle: Changed\ndescription: Changed.\n---\n\n# Changed\n\nbrand new words\n',
      );
      const second = new Promise<void>((resolve) => {
        warmed = resolve;
      });
      store.applyChanges(['knowledge/documents/any/guides/extra-3.md']);
      await second;
      expect(reports.map((report) => report.generation)).toEqual([1, 2]);
      const changed = store.current().catalog.documents;
      expect(queries.searchDocuments(changed, 'brand new')).toEqual(searchDocuments(changed, 'brand new'));
    } finally {
      stop();
      if (spinning) clearImmediate(spinning);
    }
    // Stopped: a change is no longer warmed.
    const before = calls();
    project.write(
      'knowledge/documents/any/guides/extra-4.md',
      '---\ntitle: Again\ndescription: Again.\n---\n\nagain\n',
    );
    store.applyChanges(['knowledge/documents/any/guides/extra-4.md']);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls()).toBe(before);
    stop();
  });
});

describe('warming once the hosts are quiet', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('begins only after arm and a quiet period, each activity before that postpones it, stop prevents it', async () => {
    project = copyFixture('valid');
    const store = createCatalogStore({ root: project.root });
    const { counted, calls } = countingQueries();
    // The quiet period is a timer: fake it, so "a host kept talking" is exact, never a race with a loaded machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let warmed = false;
    const warmUp = warmWhenQuiet(store, counted, { quietMs: 250, onWarm: () => (warmed = true) });
    warmUp.activity();
    vi.advanceTimersByTime(1000);
    expect(calls(), 'activity before arm').toBe(0);
    warmUp.arm();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(200);
      warmUp.activity();
    }
    expect(calls(), 'a host talking every 200 ms').toBe(0);
    vi.advanceTimersByTime(249);
    expect(calls()).toBe(0);
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    // Begun: its slices run on setImmediate, which is real.
    await vi.waitFor(() => expect(warmed).toBe(true), { timeout: 10_000 });
    expect(calls()).toBeGreaterThan(0);
    warmUp.stop();

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const never = warmWhenQuiet(store, counted, { quietMs: 250 });
    const before = calls();
    never.arm();
    never.stop();
    vi.advanceTimersByTime(1000);
    never.activity();
    never.arm();
    vi.advanceTimersByTime(1000);
    expect(calls(), 'stopped before it began').toBe(before);
  });

  it('stopped on a shared gate, it never begins and leaves the gate to the rest of its work', () => {
    project = copyFixture('valid');
    const store = createCatalogStore({ root: project.root });
    const { counted, calls } = countingQueries();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gate = createQuietGate(250);
    const ran: string[] = [];
    const warmUp = warmWhenQuiet(store, counted, { gate });
    warmUp.arm();
    gate.when(() => ran.push('reconcile'));
    warmUp.stop();
    vi.advanceTimersByTime(1000);
    expect(ran, 'the door still runs what waits on its gate').toEqual(['reconcile']);
    expect(calls(), 'the stopped warm-up').toBe(0);
  });
});

describe('createQuietGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs what waits once quiet: activity with nothing waiting changes nothing, activity while waiting postpones', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gate = createQuietGate(250);
    const ran: string[] = [];
    gate.activity();
    vi.advanceTimersByTime(1000);
    gate.when(() => ran.push('reconcile'));
    vi.advanceTimersByTime(100);
    // A host's list walk: a request every 100 ms.
    for (let i = 0; i < 10; i++) {
      gate.activity();
      vi.advanceTimersByTime(100);
    }
    gate.when(() => ran.push('warm-up'));
    vi.advanceTimersByTime(249);
    expect(ran, 'a host talking').toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['reconcile', 'warm-up']);
    // Run once each; quiet again afterwards runs nothing more.
    gate.activity();
    vi.advanceTimersByTime(1000);
    expect(ran).toHaveLength(2);
  });

  it('runs nothing once stopped, neither what waited nor what is asked later', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gate = createQuietGate(250);
    const ran: string[] = [];
    gate.when(() => ran.push('before'));
    gate.stop();
    gate.when(() => ran.push('after'));
    gate.activity();
    vi.advanceTimersByTime(1000);
    expect(ran).toEqual([]);
  });
});
