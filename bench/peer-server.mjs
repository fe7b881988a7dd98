#!/usr/bin/env node
/**
 * The peer as a host runs it: `@modelcontextprotocol/server` 2.4's skills catalog (`loadSkills(<root>/skills)`)
 * attached to an `McpServer` over stdio (`StdioServerTransport`), exactly as the SDK's documentation wires it.
 * bench/peer.mjs sets it beside `companion serve --root <root>` with the same stdio client.
 *
 *   node bench/peer-server.mjs <root>
 */
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: node bench/peer-server.mjs <root>\n');
  process.exit(2);
}
const catalog = await loadSkills(join(root, 'skills'), { onWarning: () => {} });
const mcp = new McpServer({ name: 'peer', version: '1.0.0' });
catalog.attach(mcp);
await mcp.connect(new StdioServerTransport());
