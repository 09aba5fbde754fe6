import { createContext, useContext, type ReactNode } from "react";

/**
 * Content a loader gives the server's render of a whole document but leaves out of the data
 * the browser hydrates from (it is in the HTML already): an article's body (ADR 036). Loaders
 * put it in the load context (`documentOnly`), entry.server hands it to the render here.
 * In the browser the context is empty.
 */
export type DocumentOnly = Record<string, unknown>;

const DocumentOnlyContext = createContext<DocumentOnly>({});

export function DocumentOnlyProvider({ value, children }: { value: DocumentOnly; children: ReactNode }) {
  return <DocumentOnlyContext.Provider value={value}>{children}</DocumentOnlyContext.Provider>;
}

export function useDocumentOnly<T>(key: string): T | undefined {
  return useContext(DocumentOnlyContext)[key] as T | undefined;
}
