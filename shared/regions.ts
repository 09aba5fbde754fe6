/** Countries the store ships to (ISO 3166-1 alpha-2), with names from the platform's ICU data. */
const COUNTRY_CODES = [
  "US", "CA", "AR", "AU", "AT", "BE", "BR", "CL", "CN", "CO", "CZ", "DK", "EG", "FI", "FR", "DE", "GH", "GR", "HK", "HU", "IS", "IN",
  "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LU", "MY", "MX", "MA", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "QA", "RO",
  "SA", "SG", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "AE", "GB", "UA", "VN",
] as const;

const names = new Intl.DisplayNames(["en"], { type: "region" });

export const COUNTRIES: { code: string; name: string }[] = [
  ...COUNTRY_CODES.slice(0, 2).map((code) => ({ code, name: names.of(code)! })),
  ...COUNTRY_CODES.slice(2)
    .map((code) => ({ code, name: names.of(code)! }))
    .sort((a, b) => a.name.localeCompare(b.name)),
];

const US_STATES: Record<string, string> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut", DE: "Delaware",
  DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho", IL: "Illinois", IN: "Indiana", IA: "Iowa",
  KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine", MD: "Maryland", MA: "Massachusetts", MI: "Michigan", MN: "Minnesota",
  MS: "Mississippi", MO: "Missouri", MT: "Montana", NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey",
  NM: "New Mexico", NY: "New York", NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon",
  PA: "Pennsylvania", RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas", UT: "Utah",
  VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
};

const CA_PROVINCES: Record<string, string> = {
  AB: "Alberta", BC: "British Columbia", MB: "Manitoba", NB: "New Brunswick", NL: "Newfoundland and Labrador",
  NS: "Nova Scotia", NT: "Northwest Territories", NU: "Nunavut", ON: "Ontario", PE: "Prince Edward Island", QC: "Quebec",
  SK: "Saskatchewan", YT: "Yukon",
};

/** The states or provinces to choose from for a country; empty where the store asks for none. */
export function regionsOf(countryCode: string): { code: string; name: string }[] {
  const table = countryCode === "US" ? US_STATES : countryCode === "CA" ? CA_PROVINCES : {};
  return Object.entries(table).map(([code, name]) => ({ code, name }));
}

export const isCountry = (code: string) => COUNTRIES.some((c) => c.code === code);
export const isRegionOf = (countryCode: string, region: string) => regionsOf(countryCode).some((r) => r.code === region);
export const isDomestic = (countryCode: string) => countryCode === "US" || countryCode === "CA";
