import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of the current document (undefined in the browser, where it is not needed). */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
