/**
 * Bytes made once, sent many times. A handler answering from bytes it serialized earlier (a page of a list, see
 * `list-pages.ts`) puts a placeholder string where that JSON value belongs in its result; the SDK builds and
 * serializes the response around it as always — envelope, `resultType`, caching fields, ids — and the door that
 * writes the response to the wire replaces the placeholder's JSON with the bytes. The text that goes out is exactly
 * what serializing the whole result would have produced.
 *
 * Why a placeholder: the SDK's transports serialize each message with `JSON.stringify`, and Node 20 has no
 * `JSON.rawJSON` to hand it text that is already JSON. Only doors that promise to splice (companion's HTTP door and
 * stdio wire) create a splice; any other transport (an in-memory pair in a test) gets the result built afresh.
 *
 * A splice belongs to one response. Its placeholders carry a random nonce, so nothing a client sends can name one,
 * and each is replaced at most once. The nonce is a `randomUUID()` (122 random bits, drawn from Node's batched
 * entropy): `randomBytes` per response was a system call on every list request.
 */
import { randomUUID } from 'node:crypto';

export class ResponseSplice {
  readonly #nonce = randomUUID();
  /** Placeholders held and not yet found in the output: their JSON text as bytes, and what replaces them. */
  readonly #pending: { readonly needle: Buffer; readonly bytes: Uint8Array }[] = [];
  #count = 0;

  /** A string to put in a result where the JSON text `json` belongs. */
  hold(json: Uint8Array): string {
    const placeholder = `\u0000companion-splice:${this.#nonce}:${this.#count++}`;
    this.#pending.push({ needle: Buffer.from(JSON.stringify(placeholder), 'utf8'), bytes: json });
    return placeholder;
  }

  /** Whether some placeholder was held and not yet replaced. */
  get pending(): boolean {
    return this.#pending.length > 0;
  }

  /**
   * `serialized` (one whole message, or a chunk of a stream) with every held placeholder it contains replaced, as
   * parts to write in order; `[serialized]` when it holds none.
   */
  replace(serialized: Uint8Array): Uint8Array[] {
    if (this.#pending.length === 0) return [serialized];
    const text = Buffer.from(serialized.buffer, serialized.byteOffset, serialized.byteLength);
    const found: { at: number; end: number; bytes: Uint8Array }[] = [];
    for (let i = this.#pending.length - 1; i >= 0; i--) {
      const { needle, bytes } = this.#pending[i]!;
      const at = text.indexOf(needle);
      if (at === -1) continue;
      found.push({ at, end: at + needle.length, bytes });
      this.#pending.splice(i, 1);
    }
    if (found.length === 0) return [serialized];
    found.sort((a, b) => a.at - b.at);
    const parts: Uint8Array[] = [];
    let from = 0;
    for (const { at, end, bytes } of found) {
      if (at > from) parts.push(text.subarray(from, at));
      parts.push(bytes);
      from = end;
    }
    if (from < text.length) parts.push(text.subarray(from));
    return parts;
  }

  /**
   * The same response with its body spliced: each chunk as it streams (an SSE frame, or a JSON body), a placeholder
   * split across two chunks included. The status and headers are kept (there is no content-length to fix: the SDK
   * sets none, and a spliced body is written chunked).
   */
  wrap(response: Response): Response {
    if (response.body === null) return response;
    const longest = () => Math.max(0, ...this.#pending.map((item) => item.needle.length));
    let carry: Uint8Array | undefined;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          const input = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
          carry = undefined;
          if (!this.pending) {
            controller.enqueue(input);
            return;
          }
          const parts = this.replace(input);
          // A placeholder still pending may have begun at the end of this chunk: keep that tail for the next.
          const keep = this.pending ? longest() - 1 : 0;
          const last = parts.at(-1)!;
          if (keep > 0 && last.byteLength > 0) {
            const cut = Math.max(0, last.byteLength - keep);
            parts[parts.length - 1] = last.subarray(0, cut);
            carry = last.subarray(cut);
          }
          for (const part of parts) if (part.byteLength > 0) controller.enqueue(part);
        },
        flush: (controller) => {
          if (carry !== undefined && carry.byteLength > 0) controller.enqueue(carry);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}
