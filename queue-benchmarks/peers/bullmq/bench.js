'use strict';
// The BullMQ side of Ordo's benchmark harness. The Java harness starts this process once per run and
// sends one JSON request per line on stdin; each answer is one JSON line on stdout (logs go to stderr).
// Every request opens its own Queue/Worker and closes them before answering, so the harness can
// FLUSHALL between requests. The workloads mirror queue-benchmarks' JavaSubject (docs/benchmarks.md).
const { Queue, Worker } = require('bullmq');
const readline = require('readline');
const threads = require('worker_threads');

const QUEUE = 'bench';
const PARTITIONS = 1000;
const PRELOAD_BATCH = 1000;

const connection = (port) => ({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
// Monotonic nanoseconds from an origin shared with the publisher thread (hrtime is one clock per machine).
const clockFrom = (origin) => () => Number(process.hrtime.bigint() - origin);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The same ~100-byte JSON object as the Java contenders publish (BenchPayload): stored as one job's data.
function payload(i, t) {
  const pad = (n, width) => String(n).padStart(width, '0');
  return { i: pad(i, 10), p: pad(i % PARTITIONS, 7), k: pad(Math.floor(i / PARTITIONS), 7), t: pad(t, 19),
    cust: 'c-42', amount: 1999 };
}

// The 100-byte result M3's worker keeps with each completed job, as Ordo's keeps BenchPayload.result: BullMQ
// stores the JSON of the value a processor returns, here the same 100 bytes.
function result(i) {
  return { i: String(i).padStart(10, '0'), state: 'done', worker: 'bench-worker-1', total: 1999,
    note: 'kept for the owner' };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p * sorted.length) / 100 - 1e-9); // 99.9% of 1000 is rank 999
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
}

async function withQueue(port, body) {
  const queue = new Queue(QUEUE, { connection: connection(port) });
  await queue.waitUntilReady();
  try {
    return await body(queue);
  } finally {
    await queue.close();
  }
}

async function addInBatches(queue, from, count, batch, now) {
  for (let start = from; start < from + count; start += batch) {
    const jobs = [];
    for (let i = start; i < Math.min(start + batch, from + count); i++) {
      jobs.push({ name: 't', data: payload(i, now()) });
    }
    await queue.addBulk(jobs);
  }
}

// A worker that handles every job with a no-op and keeps the harness's exactly-once bookkeeping;
// completed jobs are removed, as an ack removes a task in Ordo, unless `keep` (M3): then each job returns
// its result and stays completed with it, BullMQ's default.
function startWorker(port, concurrency, tasks, now, onHandle, keep = false) {
  const seen = new Uint8Array(tasks);
  const state = { handled: 0, duplicates: 0, completed: 0, failed: 0, lastCompletion: 0, target: tasks };
  let finish;
  state.done = new Promise((resolve) => { finish = resolve; });
  // the latency workload learns how many jobs went out only when its schedule ends
  state.expect = (count) => {
    state.target = count;
    if (state.completed + state.failed >= count) finish();
  };
  const worker = new Worker(QUEUE, async (job) => {
    const i = Number(job.data.i);
    if (onHandle) onHandle(job, i);
    if (seen[i]++) state.duplicates++; else state.handled++;
    return keep ? result(i) : undefined;
  }, {
    connection: connection(port), concurrency, removeOnComplete: keep ? false : { count: 0 },
    removeOnFail: { count: 100000 },
  });
  worker.on('completed', () => {
    state.completed++;
    state.lastCompletion = now();
    if (state.completed + state.failed >= state.target) finish();
  });
  worker.on('failed', () => {
    state.failed++;
    if (state.completed + state.failed >= state.target) finish();
  });
  worker.on('error', (error) => console.error('bullmq worker error:', error.message));
  return { worker, state };
}

async function awaitDone(state, tasks, timeoutMs) {
  const timeout = sleep(timeoutMs).then(() => 'timeout');
  if ((await Promise.race([state.done, timeout])) === 'timeout') {
    throw new Error(`only ${state.completed} of ${tasks} jobs completed within ${timeoutMs} ms`);
  }
}

function exactlyOnce(state, tasks) { // tasks: how many were published
  return { handled: state.handled, duplicates: state.duplicates, completed: state.completed, failed: state.failed,
    missing: tasks - state.handled };
}

const operations = {
  async hello() {
    return { bullmq: require('bullmq/package.json').version, node: process.version };
  },

  async P1({ port, seconds }) {
    const now = clockFrom(process.hrtime.bigint());
    return withQueue(port, async (queue) => {
      const start = now();
      const end = start + seconds * 1e9;
      let published = 0;
      while (now() < end) {
        await queue.add('t', payload(published, now()));
        published++;
      }
      return { tasksPerSecond: published / ((now() - start) / 1e9), published };
    });
  },

  async P2({ port, tasks, batch }) {
    const now = clockFrom(process.hrtime.bigint());
    return withQueue(port, async (queue) => {
      const start = now();
      await addInBatches(queue, 0, tasks, batch, now);
      return { tasksPerSecond: tasks / ((now() - start) / 1e9) };
    });
  },

  // Pre-loads for C1 and M1: four addBulk calls in flight, as the fill itself is not measured.
  async fill({ port, from, tasks }) {
    const now = clockFrom(process.hrtime.bigint());
    const lanes = 4;
    const share = Math.ceil(tasks / lanes);
    await withQueue(port, (queue) => Promise.all(Array.from({ length: lanes }, (_, lane) => {
      const first = from + lane * share;
      return addInBatches(queue, first, Math.max(0, Math.min(share, from + tasks - first)), PRELOAD_BATCH, now);
    })));
    return {};
  },

  async drain({ port, tasks, concurrency }) {
    const now = clockFrom(process.hrtime.bigint());
    const start = now();
    const { worker, state } = startWorker(port, concurrency, tasks, now);
    await awaitDone(state, tasks, 60000 + tasks);
    await worker.close();
    const left = await withQueue(port, (queue) => queue.getJobCounts('wait', 'active', 'delayed', 'completed'));
    return { tasksPerSecond: tasks / ((state.lastCompletion - start) / 1e9), ...exactlyOnce(state, tasks), left };
  },

  // M3: drains the filled queue keeping every completed job with its result; says how many are kept and
  // whether the last one kept its return value as returned.
  async keep({ port, tasks, concurrency }) {
    const now = clockFrom(process.hrtime.bigint());
    const { worker, state } = startWorker(port, concurrency, tasks, now, undefined, true);
    await awaitDone(state, tasks, 60000 + tasks);
    await worker.close();
    const { kept, resultKept } = await withQueue(port, async (queue) => {
      const counts = await queue.getJobCounts('completed');
      const [last] = await queue.getJobs(['completed'], 0, 0);
      return { kept: counts.completed, resultKept: last !== undefined
        && JSON.stringify(last.returnvalue) === JSON.stringify(result(Number(last.data.i)))
        && JSON.stringify(last.returnvalue).length === 100 };
    });
    return { ...exactlyOnce(state, tasks), kept, resultKept };
  },

  // Publishes one job per call on a fixed schedule from a thread of its own while the worker here handles them.
  async latency({ port, rate, seconds, concurrency }) {
    const origin = process.hrtime.bigint();
    const now = clockFrom(origin);
    const tasks = Math.floor(rate * seconds);
    const latencies = new Float64Array(tasks);
    const { worker, state } = startWorker(port, concurrency, tasks, now,
      (job, i) => { latencies[i] = now() - Number(job.data.t); });
    await worker.waitUntilReady();
    await sleep(150);
    const publisher = new threads.Worker(__filename,
      { workerData: { port, rate, tasks, seconds, origin: origin.toString() } });
    const published = await new Promise((resolve, reject) => {
      publisher.once('message', resolve);
      publisher.once('error', reject);
    });
    state.expect(published.tasks);
    await awaitDone(state, published.tasks, 60000 + published.tasks);
    await worker.close();
    const sorted = Array.from(latencies.subarray(0, published.tasks)).sort((a, b) => a - b);
    const ms = (p) => percentile(sorted, p) / 1e6;
    return { p50: ms(50), p99: ms(99), p999: ms(99.9), publishRate: published.tasks / published.seconds,
      published: published.tasks, ...exactlyOnce(state, published.tasks) };
  },

  async 'idle-start'({ port, concurrency }) {
    idle = new Worker(QUEUE, async () => {}, { connection: connection(port), concurrency });
    await idle.waitUntilReady();
    return {};
  },

  async 'idle-stop'() {
    await idle.close();
    idle = undefined;
    return {};
  },
};
let idle;

// The publisher thread of the latency workload: open loop, so a slow add never delays the ones after it;
// the schedule ends with its time (jobs still unpublished then are left out, and the rate reached says so).
async function publishOnSchedule({ port, rate, tasks, seconds, origin }) {
  const now = clockFrom(BigInt(origin));
  const queue = new Queue(QUEUE, { connection: connection(port) });
  await queue.waitUntilReady();
  const interval = 1e9 / rate;
  const start = now() + 1e6;
  const end = start + seconds * 1e9;
  const pending = [];
  for (let i = 0; i < tasks; i++) {
    const ahead = start + i * interval - now();
    if (ahead > 1e6) await sleep(Math.floor(ahead / 1e6));
    if (now() > end) break;
    pending.push(queue.add('t', payload(i, now())));
  }
  await Promise.all(pending);
  const elapsed = (now() - start) / 1e9;
  await queue.close();
  threads.parentPort.postMessage({ tasks: pending.length, seconds: elapsed });
}

async function serve() {
  const port = Number(process.env.REDIS_PORT);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let answer;
    try {
      const request = JSON.parse(line);
      if (request.op === 'quit') break;
      const operation = operations[request.op];
      if (!operation) throw new Error(`unknown op ${request.op}`);
      answer = { ok: true, ...(await operation({ port, ...request })) };
    } catch (error) {
      answer = { ok: false, error: String(error && error.stack || error) };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
  process.exit(0);
}

if (threads.isMainThread) {
  serve();
} else {
  publishOnSchedule(threads.workerData).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
