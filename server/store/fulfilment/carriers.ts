// The carriers the desk offers for a shipment, and where each one's tracking page is (ADR 086).
// A carrier not in the list is kept as typed and shown with its number only.

export interface Carrier {
  id: string;
  name: string;
  /** `{number}` is replaced by the tracking number, URL-encoded. */
  trackingUrl: string;
}

export const CARRIERS: readonly Carrier[] = [
  { id: "usps", name: "USPS", trackingUrl: "https://tools.usps.com/go/TrackConfirmAction?tLabels={number}" },
  { id: "ups", name: "UPS", trackingUrl: "https://www.ups.com/track?tracknum={number}" },
  { id: "fedex", name: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={number}" },
  { id: "dhl", name: "DHL", trackingUrl: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={number}" },
  { id: "royal-mail", name: "Royal Mail", trackingUrl: "https://www.royalmail.com/track-your-item#/tracking-results/{number}" },
];

/** The carrier's display name: a known carrier's own, else as it was typed. */
export const carrierName = (carrier: string) => CARRIERS.find((c) => c.id === carrier)?.name ?? carrier;

/** The carrier's tracking page for this number; null for a carrier the site does not know. */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  const known = CARRIERS.find((c) => c.id === carrier);
  return known ? known.trackingUrl.replace("{number}", encodeURIComponent(trackingNumber)) : null;
}

/**
 * A carrier as a tool or a person names it: a known carrier by its id or its name, in any case
 * ("UPS", "ups", "royal mail"), is that carrier's id; anything else is kept as typed (trimmed).
 */
export function carrierFor(named: string): string {
  const text = named.trim().replace(/\s+/g, " ");
  const wanted = text.toLowerCase();
  return CARRIERS.find((c) => c.id === wanted || c.name.toLowerCase() === wanted)?.id ?? text;
}
