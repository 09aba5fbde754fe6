// Password hashing cost: npm run bench:hash
// Prints how long one scrypt hash (OWASP minimum N=2^17, r=8, p=1) and one verification take
// here, and how many sign-ins per second four at a time (libuv's default thread pool) allow.
import os from "node:os";
import { hashPassword, verifyPassword } from "../server/accounts/passwords";

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${os.cpus().length} cores, ${ROUNDS} rounds`);
console.log(`hash:   median ${median(hashTimes).toFixed(0)} ms, max ${Math.max(...hashTimes).toFixed(0)} ms`);
console.log(`verify: median ${median(verifyTimes).toFixed(0)} ms, max ${Math.max(...verifyTimes).toFixed(0)} ms`);
console.log(`8 verifications at once: ${parallelMs.toFixed(0)} ms (${((8 / parallelMs) * 1000).toFixed(1)} sign-ins/s)`);
