/** The store's domestic countries, the US and Canada: their own shipping methods and rates. A module of its own, so that a page asking this does not load the country list. */
export const isDomestic = (countryCode: string) => countryCode === "US" || countryCode === "CA";
