/**
 * What the scope file says is covered: each topic with its scope and the documents and skills it names, and —
 * first, because they need action — every served document or skill that no topic names.
 */
import { Fragment } from 'react';
import type { CoverageView, CoveredItem } from '../dev-state.js';
import { pluralize, toSingleLine } from '../format.js';
import { Panel, type PanelLine } from './Panel.js';
import { Tint } from './Tint.js';

/** `6 topics · 22 documents · 5 skills · 1 uncovered`. */
export function summarizeCoverage(coverage: CoverageView): string {
  const parts = [
    pluralize(coverage.topics.length, 'topic'),
    pluralize(coverage.documents, 'document'),
    pluralize(coverage.skills, 'skill'),
  ];
  if (coverage.uncovered.length > 0) parts.push(`${coverage.uncovered.length} uncovered`);
  return parts.join(' · ');
}

/** One row per uncovered item, then one per topic. Never empty. */
export function buildCoverageLines(coverage: CoverageView): PanelLine[] {
  const lines: PanelLine[] = coverage.uncovered.map((item) => ({
    key: `uncovered:${item.kind}:${item.id}`,
    node: (
      <Tint tone="warning">
        {'! not covered: '}
        {item.kind} {toSingleLine(item.id)}
      </Tint>
    ),
  }));
  for (const topic of coverage.topics) {
    const counts = `${pluralize(topic.documents.length, 'doc')}, ${pluralize(topic.skills.length, 'skill')}`;
    lines.push({
      key: `topic:${topic.id}`,
      node: (
        <>
          <Tint bold>{toSingleLine(topic.id)}</Tint>
          <Tint tone="accent">{` [${toSingleLine(topic.scope)}]`}</Tint>
          <Tint dim>{` ${counts}`}</Tint>
          {topic.documents.length + topic.skills.length > 0 ? ': ' : ''}
          <Items items={topic.documents} />
          {topic.documents.length > 0 && topic.skills.length > 0 ? ' · ' : ''}
          {topic.skills.length > 0 ? 'skill ' : ''}
          <Items items={topic.skills} />
        </>
      ),
    });
  }
  if (lines.length === 0) {
    lines.push({ key: 'empty', node: <Tint dim>no topics declared in knowledge/server-scope.json</Tint> });
  }
  return lines;
}

/** Comma-separated ids; one a topic names but the catalog does not serve is marked missing. */
function Items({ items }: { readonly items: readonly CoveredItem[] }) {
  return (
    <>
      {items.map((item, index) => (
        <Fragment key={item.id}>
          {index > 0 ? ', ' : ''}
          {item.served ? (
            toSingleLine(item.id)
          ) : (
            <Tint tone="error">{`${toSingleLine(item.id)} (missing)`}</Tint>
          )}
        </Fragment>
      ))}
    </>
  );
}

export interface CoveragePanelProps {
  readonly coverage: CoverageView;
  readonly rows: number;
  readonly width: number;
  readonly bordered?: boolean;
}

export function CoveragePanel({ coverage, rows, width, bordered }: CoveragePanelProps) {
  return (
    <Panel
      title="Coverage"
      summary={summarizeCoverage(coverage)}
      lines={buildCoverageLines(coverage)}
      rows={rows}
      width={width}
      {...(bordered === undefined ? {} : { bordered })}
    />
  );
}
