/** `?`: every key, and the rule of what hosts see while a file is broken. */
import { memo } from 'react';
import { VIEWS, viewTitle } from '../components/Header.js';
import { type Row, Rows } from '../components/Rows.js';
import { Tint } from '../components/Tint.js';

const KEYS: readonly (readonly [string, string])[] = [
  ...VIEWS.map((view, index) => [`${index + 1}`, `${viewTitle(view)} view`] as const),
  ['Tab / Shift+Tab', 'next / previous view'],
  ['↑ ↓  j k', 'select a finding (Problems), scroll (other views)'],
  ['Enter', 'open the selected finding in $VISUAL or $EDITOR at its line (else show a link)'],
  ['?  Esc', 'this help / close it'],
  ['q  Ctrl+C', 'quit (hosts are disconnected cleanly)'],
];

export function buildHelpRows(): Row[] {
  return [
    { key: 'title', node: <Tint bold>Keys</Tint> },
    ...KEYS.map(([key, what]) => ({
      key: `key:${key}`,
      node: (
        <>
          <Tint tone="accent" bold>
            {`  ${key.padEnd(18)}`}
          </Tint>
          {what}
        </>
      ),
    })),
    { key: 'gap', node: '' },
    {
      key: 'rule',
      node: (
        <Tint dim>
          While a file does not parse or validate, hosts keep its last good version (marked held); a cold
          start withholds it.
        </Tint>
      ),
    },
  ];
}

export const HelpView = memo(function HelpView({
  width,
  rows,
}: {
  readonly width: number;
  readonly rows: number;
}) {
  return <Rows lines={buildHelpRows()} rows={rows} width={width} />;
});
