/** The terminal's size, re-read on every `resize` of Ink's stdout. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** Used when the stream does not say (a fake stdout in tests, or a pipe): the classic 80×24. */
export const FALLBACK_SIZE: TerminalSize = { columns: 80, rows: 24 };

/** Reads a stream's size, falling back per dimension. */
export function readTerminalSize(stream: {
  readonly columns?: number;
  readonly rows?: number;
}): TerminalSize {
  return {
    columns: stream.columns !== undefined && stream.columns > 0 ? stream.columns : FALLBACK_SIZE.columns,
    rows: stream.rows !== undefined && stream.rows > 0 ? stream.rows : FALLBACK_SIZE.rows,
  };
}

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => readTerminalSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(readTerminalSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
