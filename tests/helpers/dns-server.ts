import dgram from "node:dgram";
import type { AddressInfo } from "node:net";

/**
 * A loopback DNS server over UDP that answers PTR, A and AAAA questions from a fixed zone, as a
 * resolver pointed at it (dns.Resolver#setServers) asks them. Unknown names get NXDOMAIN.
 */
export interface Zone {
  /** Reverse names, e.g. "1.2.0.192.in-addr.arpa" → ["crawl-192-0-2-1.googlebot.com"]. */
  ptr?: Record<string, string[]>;
  a?: Record<string, string[]>;
  aaaa?: Record<string, string[]>;
}

export interface DnsServer {
  /** "127.0.0.1:port", for setServers or CRAWLER_DNS_SERVERS. */
  address: string;
  /** The questions received, as "TYPE name". */
  questions: string[];
  close(): Promise<void>;
}

const TYPES = { A: 1, PTR: 12, AAAA: 28 } as const;

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    const length = message[at]!;
    if (length === 0) return { name: labels.join("."), end: at + 1 };
    labels.push(message.subarray(at + 1, at + 1 + length).toString("ascii"));
    at += 1 + length;
  }
}

function encodeName(name: string): Buffer {
  const parts = name
    .split(".")
    .filter(Boolean)
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function encodeAddress(type: number, address: string): Buffer {
  if (type === TYPES.A) return Buffer.from(address.split(".").map(Number));
  const [head = "", tail = ""] = address.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

function answer(query: Buffer, zone: Zone, questions: string[]): Buffer {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const lower = name.toLowerCase();
  const values =
    type === TYPES.PTR ? zone.ptr?.[lower] : type === TYPES.A ? zone.a?.[lower] : type === TYPES.AAAA ? zone.aaaa?.[lower] : undefined;
  questions.push(`${Object.entries(TYPES).find(([, v]) => v === type)?.[0] ?? type} ${lower}`);
  const records = (values ?? []).map((value) => {
    const data = type === TYPES.PTR ? encodeName(value) : encodeAddress(type, value);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // class IN
    fixed.writeUInt32BE(300, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(values ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN when unknown
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, question, ...records]);
}

export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const questions: string[] = [];
  socket.on("message", (message, peer) => socket.send(answer(message, zone, questions), peer.port, peer.address));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
