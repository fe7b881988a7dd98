/**
 * A tool is registered in one place, `src/core/tools/`: these hold every part of the product that names tools to
 * reading the registry, so a new entry there (and its handler, which the compiler asks for) shows up in each —
 * listed and dispatched by the MCP door, allowed by the scope file's schema and lint, in the instructions and the
 * scaffold `companion init` writes, in the diagnostics' hints and in `serve --help`.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildScaffold } from '../../../src/cli/templates/scaffold.js';
import { buildCatalog } from '../../../src/core/catalog.js';
import { codes } from '../../../src/core/diagnostics.js';
import { createCatalogQueries } from '../../../src/core/queries.js';
import { buildScopeJsonSchema } from '../../../src/core/scope-schema.js';
import { TOOL_DEFINITIONS, TOOL_NAMES, TOOLS } from '../../../src/core/tools/index.js';
import { callTool, listTools } from '../../../src/mcp/tools.js';
import { runCli } from '../../helpers/run-cli.js';
import { buildSnapshot } from '../../helpers/snapshot.js';

const scaffold = buildScaffold({ name: 'registry-test', title: 'Registry test' });
const files = Object.fromEntries(scaffold.map((file) => [file.path, file.content]));

function build(excludeTools: readonly string[] = []) {
  return buildCatalog(buildSnapshot(files), { excludeTools: [...excludeTools] });
}

describe('the tool registry', () => {
  it('names each tool once, and every role names a registered tool', () => {
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_DEFINITIONS.length);
    expect(TOOL_NAMES).toEqual(TOOL_DEFINITIONS.map((definition) => definition.name));
    for (const name of Object.values(TOOLS)) expect(TOOL_NAMES).toContain(name);
  });

  it('is what tools/list offers, in its order, with each definition’s words', () => {
    const { catalog } = build();
    expect(catalog.tools).toEqual(TOOL_NAMES);
    expect(listTools(catalog).map(({ name, title, description }) => ({ name, title, description }))).toEqual(
      TOOL_DEFINITIONS.map(({ name, title, description }) => ({ name, title, description })),
    );
  });

  it('dispatches every entry to its own handler, which answers in the entry’s output schema', () => {
    const { catalog } = build();
    const queries = createCatalogQueries();
    for (const definition of TOOL_DEFINITIONS) {
      // The scaffold's one skill, passed as the tool's first argument: a query, a task and a skill name alike.
      const [first] = Object.keys(z.toJSONSchema(definition.input).properties ?? {});
      const result = callTool(catalog, definition.name, { [first!]: 'first-skill' }, queries);
      expect(result.isError, definition.name).toBeUndefined();
      expect(definition.output.safeParse(result.structuredContent).success, definition.name).toBe(true);
      // An argument no tool takes is refused by that tool's own schema.
      expect(() => callTool(catalog, definition.name, { notAnArgument: 1 }, queries)).toThrow(
        `Invalid arguments for ${definition.name}: `,
      );
    }
    expect(() => callTool(catalog, 'not_a_tool', {}, queries)).toThrow('Unknown tool: not_a_tool');
  });

  it('is what the scope file may name: its schema says so, and the lint takes each', () => {
    const schema = JSON.stringify(buildScopeJsonSchema());
    expect(schema).toContain(`A tool companion serves: ${TOOL_NAMES.join(', ')}.`);
    const { diagnostics } = build();
    expect(diagnostics).toEqual([]);
  });

  it('writes one instructions line per tool into the scaffold, in the tool’s words', () => {
    const scope = JSON.parse(files['knowledge/server-scope.json']!);
    expect(scope.instructions.index).toEqual(
      TOOL_DEFINITIONS.map((definition) => ({ question: definition.answers, tool: definition.name })),
    );
    expect(scope.topics[0].tools).toEqual(TOOL_NAMES);
    const { catalog } = build();
    for (const definition of TOOL_DEFINITIONS) {
      expect(catalog.instructions).toContain(`- ${definition.answers}: ${definition.name}\n`.trimEnd());
    }
  });

  it('takes an excluded tool out of the listing, the dispatch and the instructions', () => {
    for (const excluded of TOOL_NAMES) {
      const { catalog } = build([excluded]);
      expect(listTools(catalog).map((tool) => tool.name)).toEqual(TOOL_NAMES.filter((t) => t !== excluded));
      expect(() => callTool(catalog, excluded, {}, createCatalogQueries())).toThrow(
        `Unknown tool: ${excluded}`,
      );
      expect(catalog.instructions).not.toMatch(new RegExp(`(?<![\\w-])${excluded}(?![\\w-])`));
    }
  });

  it('is what the diagnostics and serve --help name', async () => {
    expect(codes.proseUnknownTool.hint()).toContain(`(${TOOL_NAMES.join(', ')})`);
    const help = await runCli(['serve', '--help']);
    const words = help.stdout.replace(/\s+/g, ' ');
    for (const name of TOOL_NAMES) expect(words).toContain(name);
  });
});
