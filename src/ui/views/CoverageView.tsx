/**
 * What the scope file says is covered: the limits hosts enforce as meters, then — first, because they need
 * action — every served document or skill no topic names, then each topic with its scope and what it names.
 */
import { Fragment, memo, useMemo } from 'react';
import { type Row, Rows, sectionRow } from '../components/Rows.js';
import { Tint } from '../components/Tint.js';
import type { CoverageView as Coverage, CoveredItems, MeterView } from '../dev-state.js';
import { pluralize, toSingleLine } from '../format.js';

/** `6 topics · 22 documents · 5 skills · 1 uncovered`. */
export function summarizeCoverage(coverage: Coverage): string {
  const parts = [
    pluralize(coverage.topics.length, 'topic'),
    pluralize(coverage.documents, 'document'),
    pluralize(coverage.skills, 'skill'),
  ];
  if (coverage.uncovered.length > 0) parts.push(`${coverage.uncovered.length} uncovered`);
  return parts.join(' · ');
}

/** `skill listing  [██████····]  2,310 / 3,970  …`; a wider terminal shows more of the note. */
export function buildMeterRow(meter: MeterView): Row {
  const barWidth = 16;
  const share = meter.limit > 0 ? meter.used / meter.limit : 0;
  const filled = Math.min(barWidth, Math.round(share * barWidth));
  const tone = share > 1 ? 'error' : share > 0.9 ? 'warning' : 'good';
  return {
    key: `meter:${meter.label}`,
    node: (
      <>
        {meter.label.padEnd(20)}
        <Tint tone={tone}>{`[${'█'.repeat(filled)}${'·'.repeat(barWidth - filled)}]`}</Tint>
        {`  ${meter.used.toLocaleString('en-US')} / ${meter.limit.toLocaleString('en-US')}`}
        <Tint dim>{`  ${toSingleLine(meter.note)}`}</Tint>
      </>
    ),
  };
}

/** Meters, uncovered items, then a row per topic. Never empty. */
export function buildCoverageRows(coverage: Coverage): Row[] {
  const rows: Row[] = [sectionRow('summary', 'Coverage', summarizeCoverage(coverage))];
  for (const meter of coverage.meters) rows.push(buildMeterRow(meter));
  for (const item of coverage.uncovered) {
    rows.push({
      key: `uncovered:${item.kind}:${item.id}`,
      node: <Tint tone="warning">{`! not covered by any topic: ${item.kind} ${toSingleLine(item.id)}`}</Tint>,
    });
  }
  for (const topic of coverage.topics) {
    const documents = topic.documents.ids.length;
    const skills = topic.skills.ids.length;
    const counts = `${pluralize(documents, 'doc')}, ${pluralize(skills, 'skill')}`;
    rows.push({
      key: `topic:${topic.id}`,
      node: (
        <>
          <Tint bold>{toSingleLine(topic.id)}</Tint>
          <Tint tone="accent">{` [${toSingleLine(topic.scope)}]`}</Tint>
          <Tint dim>{` ${counts}`}</Tint>
          {documents + skills > 0 ? ': ' : ''}
          <Items items={topic.documents} />
          {documents > 0 && skills > 0 ? ' · ' : ''}
          {skills > 0 ? 'skill ' : ''}
          <Items items={topic.skills} />
        </>
      ),
    });
  }
  if (coverage.topics.length === 0) {
    rows.push({ key: 'empty', node: <Tint dim>no topics declared in knowledge/server-scope.json</Tint> });
  }
  return rows;
}

/** Comma-separated ids; one a topic names but the catalog does not serve is marked missing. */
function Items({ items }: { readonly items: CoveredItems }) {
  return (
    <>
      {items.ids.map((id, index) => (
        <Fragment key={id}>
          {index > 0 ? ', ' : ''}
          {items.missing.has(id) ? (
            <Tint tone="error">{`${toSingleLine(id)} (missing)`}</Tint>
          ) : (
            toSingleLine(id)
          )}
        </Fragment>
      ))}
    </>
  );
}

export interface CoverageViewProps {
  readonly coverage: Coverage;
  readonly width: number;
  readonly rows: number;
}

export const CoverageView = memo(function CoverageView({ coverage, width, rows }: CoverageViewProps) {
  const lines = useMemo(() => buildCoverageRows(coverage), [coverage]);
  return <Rows lines={lines} rows={rows} width={width} />;
});
