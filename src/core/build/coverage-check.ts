/**
 * Coverage, in both directions: every served document and skill is named by a topic, every id a topic names
 * exists (or could merely not be read just now), a document's directory agrees with its topic's scope, a skill is
 * named from topics of one scope — which is the scope it is served with —, and routing names what exists.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { buildDocumentId } from '../documents.js';
import { lintRouting } from '../lint/index.js';
import { BASE_FILE, DOCUMENTS_DIR, SCOPE_FILE, SKILL_BODY, SKILLS_DIR } from '../names.js';
import type { Availability } from './availability.js';
import type { Frame } from './frame.js';
import { documentPresence, skillPresence } from './presence.js';
import type { DocumentPositions } from './served-lists.js';
import type { DocumentUnit, SkillUnit } from './units.js';

export interface CoverageInput {
  readonly frame: Frame;
  readonly availability: Availability;
  readonly documentUnits: ReadonlyMap<string, DocumentUnit>;
  readonly skillUnits: ReadonlyMap<string, SkillUnit>;
  /** The served documents' paths and skills' ids, each in code-point order. */
  readonly servedDocumentPaths: readonly string[];
  readonly servedSkillIds: readonly string[];
  /** Each served document's id → its position in `servedDocumentPaths`. */
  readonly servedDocumentIds: DocumentPositions;
}

export interface CoverageFindings {
  readonly diagnostics: readonly Diagnostic[];
  /** Each served skill a topic names → that topic's scope. */
  readonly skillScopes: ReadonlyMap<string, string>;
}

/**
 * Checks the scope's topics against the served documents and skills: every finding as a diagnostic, and which
 * scope covers each served skill. Its one write: each id a topic names that a served document has is replaced in
 * the parsed scope's own array by that document's id string. The values are equal, so nothing observes it but
 * the heap (on XL, the scope file's 100,000 ids are ~6 MB of strings of their own); a scope whose arrays are
 * frozen would throw here, and none is.
 */
export function checkCoverage(input: CoverageInput): CoverageFindings {
  const { frame, availability, documentUnits, skillUnits, servedDocumentPaths, servedSkillIds } = input;
  const positionsById = input.servedDocumentIds;
  const { scope, positionOf, scopesById } = frame;
  if (!scope) return { diagnostics: [], skillScopes: new Map() };
  const problems = availability.problems;
  const diagnostics: Diagnostic[] = [];
  const skillScopes = new Map<string, string>();
  const parsedDocuments = servedDocumentPaths.map((path) => documentUnits.get(path)!.document!);
  /** The served documents a topic names, by position. */
  const covered = new Uint8Array(parsedDocuments.length);
  // Made for the first id a topic names that no served document has: most builds have none.
  let documentIdsOnDisk: Set<string> | undefined;
  const isDocumentOnDisk = (id: string): boolean => {
    if (documentIdsOnDisk === undefined) {
      documentIdsOnDisk = new Set();
      for (const path of [...documentUnits.keys(), ...problems.keys()]) {
        const onDisk = buildDocumentId(path);
        if (onDisk !== undefined) documentIdsOnDisk.add(onDisk);
      }
    }
    return documentIdsOnDisk.has(id);
  };
  const servedSkills = new Set(servedSkillIds);
  const draftSkills = new Set<string>();
  for (const unit of skillUnits.values()) if (unit.skill?.draft) draftSkills.add(unit.id);
  const skillIdsOnDisk = new Set<string>(skillUnits.keys());
  for (const path of problems.keys()) {
    if (path.startsWith(SKILLS_DIR) && path !== BASE_FILE) {
      const id = path.slice(SKILLS_DIR.length).split('/')[0];
      if (id) skillIdsOnDisk.add(id);
    }
  }
  scope.topics.forEach((topic, i) => {
    // Each id a topic names that a served document has becomes that document's own id string (equal, so no
    // result changes): the scope file's ids are strings of their own, parsed from its JSON, which the frame holds
    // for the life of the builder (on XL, 100,000 ids held ~6 MB beside the documents' ids).
    const names = topic.documents as string[];
    topic.documents.forEach((id, j) => {
      // Positions are looked up only for a finding: a large scope file names thousands of ids.
      const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'documents', j]) });
      const at = positionsById.get(id);
      if (at === undefined) {
        if (!isDocumentOnDisk(id) && !availability.unavailableAt(`${DOCUMENTS_DIR}${id}.md`)) {
          diagnostics.push(diagnose(codes.unknownDocument, { topic: topic.id, id }, where()));
        }
        return;
      }
      const document = parsedDocuments[at]!;
      names[j] = document.id;
      covered[at] = 1;
      if (document.scope !== topic.scope && scopesById.has(document.scope)) {
        diagnostics.push(
          diagnose(
            codes.scopeMismatch,
            { topic: topic.id, topicScope: topic.scope, id, documentScope: document.scope },
            where(),
          ),
        );
      }
    });
    topic.skills.forEach((id, j) => {
      const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'skills', j]) });
      // A draft is not published, so a topic naming it is wrong even while `includeDrafts` serves it.
      if (draftSkills.has(id)) {
        diagnostics.push(diagnose(codes.unknownSkill, { topic: topic.id, id, draft: true }, where()));
      }
      if (!servedSkills.has(id)) {
        if (!skillIdsOnDisk.has(id) && !availability.skillUnavailable(id)) {
          diagnostics.push(diagnose(codes.unknownSkill, { topic: topic.id, id, draft: false }, where()));
        }
        return;
      }
      const previous = skillScopes.get(id);
      if (previous !== undefined && previous !== topic.scope) {
        diagnostics.push(
          diagnose(
            codes.conflictingScopes,
            { kind: 'skill', id, first: previous, second: topic.scope },
            where(),
          ),
        );
        return;
      }
      skillScopes.set(id, topic.scope);
    });
  });
  parsedDocuments.forEach((document, i) => {
    if (!scopesById.has(document.scope)) {
      diagnostics.push(
        diagnose(
          codes.documentScopeUnknown,
          { kind: 'unknown', scope: document.scope, declared: [...scopesById.keys()] },
          { file: document.path, line: 1 },
        ),
      );
    } else if (covered[i] === 0) {
      diagnostics.push(
        diagnose(codes.documentNotCovered, { id: document.id }, { file: document.path, line: 1 }),
      );
    }
  });
  for (const id of servedSkillIds) {
    // A draft needs no topic until it is published (and `check` never sees it).
    if (!skillScopes.has(id) && !skillUnits.get(id)!.skill!.draft) {
      diagnostics.push(
        diagnose(codes.skillNotCovered, { id }, { file: `${SKILLS_DIR}${id}/${SKILL_BODY}`, line: 1 }),
      );
    }
  }
  diagnostics.push(
    ...lintRouting(scope, frame.scheme, positionOf, (owner) =>
      owner.startsWith('d:')
        ? documentPresence(documentUnits, `${DOCUMENTS_DIR}${owner.slice(2)}.md`, problems)
        : skillPresence(skillUnits, owner.slice(2), problems),
    ),
  );
  return { diagnostics, skillScopes };
}
