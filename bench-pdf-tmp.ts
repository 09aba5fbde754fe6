import { renderInvoicePdf } from "~/server/documents/pdf";
const input = { number: "MR-000001", issued: "November 29, 2026", publisher: { name: "Meridian Review", addressLines: ["1 Main St", "Boston, MA"], taxId: null }, billTo: { name: "Grace Hopper", email: "g@example.org", company: "Acme", taxId: "US123" }, description: "Digital subscription, monthly (renewal)", period: "a to b", amount: "$12.00", tax: "$0.00", total: "$12.00", paidWith: "Paid with Visa ending in 4242", siteUrl: "http://x", now: new Date() };
for (let i = 0; i < 200; i++) await renderInvoicePdf(input as never);
const t = performance.now();
for (let i = 0; i < 1000; i++) await renderInvoicePdf(input as never);
console.log(((performance.now() - t) / 1000).toFixed(3), "ms per invoice PDF");
