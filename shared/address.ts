import { COUNTRIES, isCountry, regionsOf } from "./regions";

/** A postal address (spec entity Address); `id` is set for a reader's saved address. */
export interface Address {
  id?: string;
  firstName: string;
  lastName: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
}

export type AddressField = Exclude<keyof Address, "id">;

export const ADDRESS_FIELDS: AddressField[] = [
  "firstName",
  "lastName",
  "address1",
  "address2",
  "city",
  "state",
  "postalCode",
  "countryCode",
];

/** The longest value each field takes (characters). */
export const ADDRESS_MAX: Record<AddressField, number> = {
  firstName: 60,
  lastName: 60,
  address1: 100,
  address2: 100,
  city: 60,
  state: 60,
  postalCode: 12,
  countryCode: 2,
};

const REQUIRED = "This field is required.";
const tooLong = (n: number) => `This field must be less than ${n + 1} characters.`;

const POSTAL_RULES: Record<string, { pattern: RegExp; message: string }> = {
  US: { pattern: /^\d{5}(-?\d{4})?$/, message: "Please enter a valid ZIP code: 5 digits, or 9 digits as 12345-6789." },
  CA: { pattern: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/, message: "Please enter a valid postal code, like A1A 1A1." },
};
const OTHER_POSTAL = { pattern: /^[A-Za-z0-9][A-Za-z0-9 -]*$/, message: "Please enter a valid postal code." };

/** Trims every field and drops a state where the country has no list of states. */
export function normalizeAddress(input: Partial<Record<AddressField, string | null | undefined>>): Address {
  const value = (field: AddressField) => (input[field] ?? "").trim();
  const countryCode = value("countryCode").toUpperCase();
  const postal = value("postalCode");
  return {
    firstName: value("firstName"),
    lastName: value("lastName"),
    address1: value("address1"),
    address2: value("address2"),
    city: value("city"),
    state: regionsOf(countryCode).length > 0 ? value("state").toUpperCase() : value("state"),
    postalCode: countryCode === "CA" ? postal.toUpperCase() : postal,
    countryCode,
  };
}

/**
 * What is wrong with an address, one message per field (none: it is fine): required fields,
 * a country the store ships to, a state or province from the country's list where it has one,
 * the postal code's format in the US and Canada, and every field's length.
 */
export function addressProblems(address: Address): Partial<Record<AddressField, string>> {
  const problems: Partial<Record<AddressField, string>> = {};
  for (const field of ["firstName", "lastName", "address1", "city", "postalCode", "countryCode"] as const) {
    if (!address[field]) problems[field] = REQUIRED;
  }
  for (const field of ADDRESS_FIELDS) {
    if (!problems[field] && address[field].length > ADDRESS_MAX[field]) problems[field] = tooLong(ADDRESS_MAX[field]);
  }
  if (!problems.countryCode && !isCountry(address.countryCode)) problems.countryCode = "Please choose a country we ship to.";
  const regions = regionsOf(address.countryCode);
  if (regions.length > 0 && !problems.state) {
    if (!address.state) problems.state = address.countryCode === "CA" ? "Please choose a province or territory." : "Please choose a state.";
    else if (!regions.some((r) => r.code === address.state))
      problems.state = `Please choose a ${address.countryCode === "CA" ? "province or territory" : "state"} from the list.`;
  }
  if (!problems.postalCode && !problems.countryCode) {
    const rule = POSTAL_RULES[address.countryCode] ?? OTHER_POSTAL;
    if (!rule.pattern.test(address.postalCode)) problems.postalCode = rule.message;
  }
  return problems;
}

/** The address as lines for a receipt or an e-mail. */
export function addressLines(a: Address): string[] {
  const cityLine = [a.city, [a.state, a.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const country = COUNTRIES.find((c) => c.code === a.countryCode)?.name ?? a.countryCode;
  return [`${a.firstName} ${a.lastName}`, a.address1, a.address2, cityLine, country].filter(Boolean);
}
