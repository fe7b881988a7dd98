import { describe, expect, it } from 'vitest';
import { parseTemplate, renderTemplate, type TemplateValue } from '../../src/core/prompt-template.js';

const FILE = 'prompts/p.md';

/** Parses `body` (as if it started on file line 5) and renders it with `values`. */
function render(body: string, values: Record<string, TemplateValue | string> = {}): string {
  const parsed = parseTemplate(body, FILE, 5);
  expect(parsed.diagnostics).toEqual([]);
  return renderTemplate(parsed.nodes, (name) => {
    const value = values[name];
    return typeof value === 'string' ? { value } : value;
  });
}

function errors(body: string) {
  return parseTemplate(body, FILE, 5).diagnostics.map((d) => ({
    code: d.code,
    line: d.line,
    column: d.column,
    message: d.message,
  }));
}

describe('parseTemplate and renderTemplate', () => {
  it('fills in values, with white space inside the braces', () => {
    expect(render('Review {{skill}} for {{ focus }}.', { skill: 'alpha', focus: 'links' })).toBe(
      'Review alpha for links.',
    );
  });

  it('leaves an argument without a value empty', () => {
    expect(render('A[{{x}}]B', {})).toBe('A[]B');
  });

  it('reads .uri and .title of what an id argument names', () => {
    const skill = { value: 'alpha', uri: 'x://skill/alpha/SKILL.md', title: 'Alpha' };
    expect(render('{{s.title}} at {{s.uri}} ({{s}})', { s: skill })).toBe(
      'Alpha at x://skill/alpha/SKILL.md (alpha)',
    );
  });

  it('shows a section only with a value and an inverted one only without', () => {
    const body = 'Go{{#focus}}, focus on {{focus}}{{/focus}}{{^focus}}, look at everything{{/focus}}.';
    expect(render(body, { focus: 'links' })).toBe('Go, focus on links.');
    expect(render(body, {})).toBe('Go, look at everything.');
  });

  it('nests sections', () => {
    const body = '{{#a}}A{{#b}}B{{/b}}{{^b}}-{{/b}}{{/a}}';
    expect(render(body, { a: '1', b: '1' })).toBe('AB');
    expect(render(body, { a: '1' })).toBe('A-');
    expect(render(body, { b: '1' })).toBe('');
  });

  it('takes the whole line of a section tag that stands alone on it, indentation and newline included', () => {
    const body = 'Start.\n  {{#focus}}\nFocus on {{focus}}.\n  {{/focus}}\nEnd.\n';
    expect(render(body, { focus: 'links' })).toBe('Start.\nFocus on links.\nEnd.\n');
    expect(render(body, {})).toBe('Start.\nEnd.\n');
  });

  it('treats CRLF lines as lines', () => {
    const body = 'Start.\r\n{{#focus}}\r\nFocus.\r\n{{/focus}}\r\nEnd.\r\n';
    expect(render(body, {})).toBe('Start.\r\nEnd.\r\n');
    expect(render(body, { focus: 'x' })).toBe('Start.\r\nFocus.\r\nEnd.\r\n');
  });

  it('keeps a tag that shares its line with text inline', () => {
    expect(render('a {{#x}}b{{/x}} c\n', { x: '1' })).toBe('a b c\n');
  });

  it('writes \\{{ as a literal {{ and never reads a value as a placeholder', () => {
    expect(render('Literal \\{{name}} and {{v}}.', { v: '{{name}}' })).toBe('Literal {{name}} and {{name}}.');
  });

  it('reports what does not parse, at the file line and column, and keeps it as text', () => {
    expect(errors('ok\nbad {{ foo bar }} here')).toEqual([
      expect.objectContaining({ code: 'CMP908', line: 6, column: 5 }),
    ]);
    expect(errors('{{name\n}}')[0]).toMatchObject({ code: 'CMP908', line: 5, column: 1 });
    expect(errors('{{#a}}x')[0]).toMatchObject({
      code: 'CMP908',
      line: 5,
      message: expect.stringContaining('never closed'),
    });
    expect(errors('x{{/a}}')[0]).toMatchObject({
      code: 'CMP908',
      message: expect.stringContaining('never opened'),
    });
    expect(errors('{{#a}}{{/b}}{{/a}}')[0]).toMatchObject({
      code: 'CMP908',
      message: expect.stringContaining('the section open here is "a"'),
    });
    expect(errors('{{#a.uri}}{{/a}}')[0]).toMatchObject({
      code: 'CMP908',
      message: expect.stringContaining('section'),
    });
    expect(errors('{{a.size}}')[0]).toMatchObject({
      code: 'CMP908',
      message: expect.stringContaining('.size'),
    });
    const kept = parseTemplate('x {{ foo bar }} y', FILE, 1);
    expect(renderTemplate(kept.nodes, () => undefined)).toBe('x {{ foo bar }} y');
  });

  it('lists every placeholder with its position, sections marked', () => {
    const parsed = parseTemplate('{{a}}\n  {{#b}}{{c.uri}}{{/b}}', FILE, 10);
    expect(parsed.refs).toEqual([
      { name: 'a', section: false, line: 10, column: 1 },
      { name: 'b', section: true, line: 11, column: 3 },
      { name: 'c', property: 'uri', section: false, line: 11, column: 9 },
    ]);
  });
});
