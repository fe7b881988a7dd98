/**
 * A tool's schema examples are promises: a model that copies one must get a useful answer. Every example a tool
 * lists — the JSON Schema `examples` of an input property, and a quoted example in its description — is called
 * against the bundled content over the real stdio server, and the answer must hold something to act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type McpConnection, repoRoot } from '../helpers/mcp-client.js';

let connection: McpConnection;

beforeAll(async () => {
  connection = await connectStdio({ root: repoRoot });
});

afterAll(async () => {
  await connection?.close();
});

interface PropertySchema {
  readonly description?: string;
  readonly examples?: readonly unknown[];
}

/** Every example of a property: its `examples`, and each `("…")` its description quotes. */
function examplesOf(property: PropertySchema): string[] {
  const listed = (property.examples ?? []).filter((value): value is string => typeof value === 'string');
  const quoted = [...(property.description ?? '').matchAll(/\("([^"]+)"\)/g)].map((match) => match[1]!);
  return [...new Set([...listed, ...quoted])];
}

/** Whether an answer holds something to act on, by what each tool promises to return. */
function isUseful(tool: string, result: Record<string, unknown>): boolean {
  if (tool === 'task_guide') {
    const guide = result as { matched: boolean; skills: unknown[]; documents: unknown[] };
    return guide.matched && guide.skills.length + guide.documents.length > 0;
  }
  if (tool === 'document_lookup') return ((result as { matches: unknown[] }).matches ?? []).length > 0;
  if (tool === 'skill_load') return typeof result.body === 'string' && result.body.length > 0;
  return false;
}

describe('tool schema examples', () => {
  it('each returns a useful answer on the bundled content', async () => {
    const { tools } = await connection.client.listTools();
    const calls = tools.flatMap((tool) =>
      Object.entries((tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>).flatMap(
        ([name, property]) => examplesOf(property).map((example) => ({ tool: tool.name, name, example })),
      ),
    );
    // The task guide's own example is among them (the one a model is most likely to copy).
    expect(calls).toContainEqual({
      tool: 'task_guide',
      name: 'task',
      example: 'write a skill that reviews pull requests',
    });
    for (const call of calls) {
      const result = await connection.client.callTool({
        name: call.tool,
        arguments: { [call.name]: call.example },
      });
      expect(result.isError, `${call.tool}(${call.name}: ${call.example})`).not.toBe(true);
      const structured = result.structuredContent as Record<string, unknown>;
      expect(isUseful(call.tool, structured), `${call.tool}(${call.name}: ${call.example})`).toBe(true);
    }
  });
});
