// The one way the site reads a request's body: the bytes actually received are counted and
// reading stops at the limit, whatever Content-Length says or leaves out (a chunked body has
// none), and a form may hold only so many fields. Routes read forms through readForm
// (form-guard.server.ts); the service API's handler and the payment webhook use these directly.

export type BodyRefusal = "too-large" | "too-many-fields" | "unreadable";

/**
 * The body's bytes; "too-large" as soon as more than maxBytes have arrived (the rest is not
 * read), "unreadable" when it broke off (the client went away).
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | Exclude<BodyRefusal, "too-many-fields">> {
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) return "too-large";
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        return "too-large";
      }
      chunks.push(value);
    }
  } catch {
    return "unreadable";
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * A form body (urlencoded or multipart) within maxBytes and maxFields. The platform's parser
 * reads it in one pass, so its cost follows its size; the field cap bounds what the code after
 * it does per field (conform gathers a repeated name by copying its list at each repeat).
 */
export async function readFormBody(request: Request, limits: { maxBytes: number; maxFields: number }): Promise<FormData | BodyRefusal> {
  const bytes = await readBodyBytes(request, limits.maxBytes);
  if (typeof bytes === "string") return bytes;
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
  } catch {
    return "unreadable";
  }
  let fields = 0;
  for (const _ of form.keys()) if (++fields > limits.maxFields) return "too-many-fields";
  return form;
}

/**
 * A body read as it arrives, for uploads too large to hold (the desk's media files, ADR 083): the
 * raw stream, or undefined when there is none. Whoever reads it counts what arrives against its
 * own limit as it comes (server/media's store, the media form's guard).
 */
export function streamedBody(request: Request): ReadableStream<Uint8Array> | undefined {
  return request.body ?? undefined;
}
