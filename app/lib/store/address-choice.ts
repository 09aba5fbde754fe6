/** The address choice that means "a new address" rather than a saved one. */
export const NEW_ADDRESS = "new";
