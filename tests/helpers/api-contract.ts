import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { Reader } from "./reader";

// Checks answers of the service API against its published OpenAPI document, as a client
// generated from that document would read them.

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** A JSON answer of the API: an error's `code`, `message` and `fields`, or the endpoint's own fields. */
export type ApiBody = Record<string, unknown> & { code?: string; message?: string; fields?: Record<string, string[]> };

export interface ApiAnswer<T = ApiBody> {
  status: number;
  json: T;
  res: Response;
}

export class ApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
  }

  static async load(baseUrl: string): Promise<ApiContract> {
    const res = await fetch(`${baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    return new ApiContract((await res.json()) as OpenApiDocument);
  }

  /** Every documented [path, method]. */
  operations(): [string, string][] {
    return Object.entries(this.document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m): [string, string] => [path, m]));
  }

  /** The statuses documented for an operation. */
  statuses(path: string, method: string): number[] {
    const operation = this.document.paths[path]?.[method];
    expect(operation, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
    return Object.keys(operation!.responses).map(Number);
  }

  /**
   * Asserts that a response is one the document gives for the operation: a documented status,
   * and a JSON body matching that status's schema. Returns the body.
   */
  async check(path: string, method: string, res: Response): Promise<unknown> {
    const where = `${method.toUpperCase()} ${path} → ${res.status}`;
    expect(this.statuses(path, method), where).toContain(res.status);
    const documented = this.document.paths[path]![method]!.responses[String(res.status)]!;
    const schema = documented.content?.["application/json"]?.schema;
    if (!schema || method === "head") return undefined;
    expect(res.headers.get("Content-Type"), where).toMatch(/^application\/json/);
    const body: unknown = await res.json();
    const key = `${method} ${path} ${res.status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    expect(validate(body) ? [] : validate.errors, `${where}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
    return body;
  }

  /**
   * A call by a client with this reader's cookies (a same-site client: it sends Origin), checked
   * against the document under its documented path ("/service/user/list/{name}"); `path` is the
   * concrete one and defaults to it. A body is sent as JSON.
   */
  async call<T = ApiBody>(
    reader: Reader,
    method: string,
    documented: string,
    options: { path?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiAnswer<T>> {
    const res = await reader.request(options.path ?? documented, { method, json: options.body, headers: options.headers });
    const json = ((await this.check(documented, method.toLowerCase(), res)) ?? {}) as T;
    return { status: res.status, json, res };
  }
}
