/**
 * Colour that switches off as a whole: every styled span in the UI goes through `Tint`, which reads one
 * context flag, so `NO_COLOR` (or a terminal without colour) yields frames with no ANSI code at all — not even
 * bold or dim.
 */
import { Text } from 'ink';
import { createContext, type ReactNode, useContext } from 'react';

/** True when the UI may style text. Provided once at the root; defaults to colour on. */
export const ColorContext = createContext(true);

/** The colours the UI uses, by meaning rather than by hue. */
export const tones = {
  error: 'red',
  warning: 'yellow',
  info: 'cyan',
  good: 'green',
  fresh: 'magenta',
  accent: 'cyan',
  muted: 'gray',
} as const;

export type Tone = keyof typeof tones;

export interface TintProps {
  readonly tone?: Tone;
  readonly bold?: boolean;
  /** Dim instead of a hue: for secondary text. */
  readonly dim?: boolean;
  readonly children?: ReactNode;
}

/** A span of text, styled only when colour is on. */
export function Tint({ tone, bold, dim, children }: TintProps) {
  const color = useContext(ColorContext);
  if (!color) return <Text>{children}</Text>;
  return (
    <Text
      {...(tone === undefined ? {} : { color: tones[tone] })}
      bold={bold === true}
      dimColor={dim === true}
    >
      {children}
    </Text>
  );
}

/** The colour for a border, or none when colour is off. */
export function useBorderColor(): string | undefined {
  return useContext(ColorContext) ? tones.muted : undefined;
}
