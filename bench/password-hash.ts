// Password hashing cost: npm run bench:hash
// Prints how long one Argon2id hash (OWASP's 19 MiB, 2 passes, 1 lane; ADR 051) and one
// verification take here, how many sign-ins per second eight at a time allow, and, to compare,
// one verification of a hash made before ADR 051 (scrypt at OWASP's N = 2^17, r = 8, p = 1).
import crypto from "node:crypto";
import os from "node:os";
import { hashPassword, verifyPassword } from "~/server/accounts/passwords";

const ROUNDS = Number(process.env.BENCH_HASHES ?? 10);

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const value = await run();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

const hashTimes: number[] = [];
const verifyTimes: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const [hash, hashMs] = await timed(() => hashPassword(`Bench${i}!password`));
  const [, verifyMs] = await timed(() => verifyPassword(`Bench${i}!password`, hash));
  hashTimes.push(hashMs);
  verifyTimes.push(verifyMs);
}
const stored = await hashPassword("Parallel1!password");
const [, parallelMs] = await timed(() => Promise.all(Array.from({ length: 8 }, () => verifyPassword("Parallel1!password", stored))));

const salt = crypto.randomBytes(16);
const scryptKey = crypto.scryptSync("Legacy1!password", salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
const scryptHash = ["scrypt", 2 ** 17, 8, 1, salt.toString("base64"), scryptKey.toString("base64")].join("$");
const [, scryptMs] = await timed(() => verifyPassword("Legacy1!password", scryptHash));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${os.cpus().length} cores, ${ROUNDS} rounds`);
console.log(`hash:   median ${median(hashTimes).toFixed(0)} ms, max ${Math.max(...hashTimes).toFixed(0)} ms`);
console.log(`verify: median ${median(verifyTimes).toFixed(0)} ms, max ${Math.max(...verifyTimes).toFixed(0)} ms`);
console.log(`before ADR 051, scrypt at N = 2^17: one verification ${scryptMs.toFixed(0)} ms`);
console.log(`8 verifications at once: ${parallelMs.toFixed(0)} ms (${((8 / parallelMs) * 1000).toFixed(1)} sign-ins/s)`);
