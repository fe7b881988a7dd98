/**
 * Description quality (CMP420–CMP424, CMP426): what makes a skill get picked, by the rules of the linters authors
 * use (Anthropic's quick_validate.py rejects angle brackets; skillscheck and skill-check flag short
 * descriptions, a missing "use when", keyword lists and user-centric or first-person phrasing).
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import type { Position } from '../front-matter.js';
import type { LintRules } from './config.js';
import { locateInValue } from './positions.js';

export interface DescriptionInput {
  readonly file: string;
  /** The whole file, to place findings inside the value. */
  readonly text: string;
  readonly description: string;
  readonly keys: ReadonlyMap<string, Position>;
  readonly bodyLine: number;
}

/** A trigger: "use when …", "when …", "invoke for …", "designed for …". */
const TRIGGER =
  /\bwhen(?:ever)?\b|\b(?:use[ds]?|invoked?|triggers?|triggered|call|load|apply|run)\s+(?:it\s+|this(?:\s+skill)?\s+)?(?:for|if|to|before|after|during|on|with|while|once)\b|\b(?:designed|needed|required|meant|intended|useful)\s+for\b/i;
const FIRST_PERSON =
  /(?<![\p{L}'’])I(?:['’](?:m|ll|ve|d))?(?![\p{L}/-])|\b(?:me|my|mine|myself|we|we['’](?:re|ll|ve)|our|ours|ourselves)\b|(?<![\p{L}])us(?![\p{L}])/u;
const FIRST_PERSON_CI = /\b(?:my|we|our)\b/i;
const SECOND_PERSON = /\b(?:you|you['’](?:re|ll|ve|d)|your|yours|yourself|yourselves)\b/i;
const PLACEHOLDER =
  /^\s*(?:(?:TODO|FIXME|TBD|XXX)\b|placeholder|description goes here|enter (?:a |the )?description|replace (?:this|me)|lorem ipsum|\.\.\.\s*$)/i;
const FILLER = /^\s*(?:this|a|the) skill\b/i;
const QUOTED = /"[^"]*"/g;

/** How a description reads as a keyword list (CMP423). */
type Stuffing = { kind: 'quoted'; quotes: number; prose: number } | { kind: 'list'; items: number };

export function lintDescription(input: DescriptionInput, rules: LintRules): Diagnostic[] {
  const { file, text, description, keys, bodyLine } = input;
  const out: Diagnostic[] = [];
  const at = { file, ...(keys.get('description') ?? { line: 1 }) };
  const inValue = (pattern: RegExp) => ({
    file,
    ...(locateInValue(text, keys, 'description', bodyLine, pattern) ?? { line: 1 }),
  });

  if (/[<>]/.test(description)) {
    out.push(diagnose(codes.descriptionAngleBrackets, {}, inValue(/[<>]/)));
  }
  if (description.length < rules.minDescriptionLength) {
    out.push(
      diagnose(
        codes.descriptionShort,
        { length: description.length, minimum: rules.minDescriptionLength },
        at,
      ),
    );
  }
  if (PLACEHOLDER.test(description) || FILLER.test(description)) {
    out.push(
      diagnose(
        codes.descriptionPlaceholder,
        { kind: PLACEHOLDER.test(description) ? 'template' : 'filler' },
        at,
      ),
    );
  }
  if (!TRIGGER.test(description)) {
    out.push(diagnose(codes.descriptionNoTrigger, {}, at));
  }
  const stuffing = describeStuffing(description);
  if (stuffing) out.push(diagnose(codes.descriptionStuffed, stuffing, at));
  const person = FIRST_PERSON.exec(description) ?? FIRST_PERSON_CI.exec(description);
  const second = SECOND_PERSON.exec(description);
  const found = person && (!second || person.index <= second.index) ? person : second;
  if (found) {
    const word = found[0];
    out.push(
      diagnose(
        codes.descriptionPerson,
        { person: found === second ? 'second' : 'first', word },
        inValue(new RegExp(`(?<![\\p{L}])${word.replace(/[’']/g, "['’]")}(?![\\p{L}])`, 'u')),
      ),
    );
  }
  return out;
}

/**
 * Why `description` reads as a keyword list, if it does: many quoted terms with little prose around them, or
 * a sentence of eight or more comma-separated items most of which are one to three words (skillscheck's two
 * tests).
 */
function describeStuffing(description: string): Stuffing | undefined {
  const quotes = description.match(QUOTED) ?? [];
  if (quotes.length >= 5) {
    const prose = description
      .replace(QUOTED, ' ')
      .split(/\s+/)
      .filter((w) => /[\p{L}\p{N}]/u.test(w));
    if (prose.length < quotes.length) {
      return { kind: 'quoted', quotes: quotes.length, prose: prose.length };
    }
  }
  for (const sentence of description.replace(QUOTED, ' ').split(/[.!?](?:\s+|$)/)) {
    const items = sentence
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (items.length < 8) continue;
    const short = items.filter((s) => s.split(/\s+/).length <= 3).length;
    if (short * 100 >= items.length * 60) return { kind: 'list', items: items.length };
  }
  return undefined;
}
