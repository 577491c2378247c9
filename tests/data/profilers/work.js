// work.js - a small Node program profiled with node --cpu-prof for trail's
// .cpuprofile reader tests (see README in this directory).
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
function build(n) {
  return "abcdefgh".repeat(n);
}
function work(ms) {
  const end = Date.now() + ms;
  let acc = 0;
  for (let r = 0; Date.now() < end; r++) {
    const s = build(64 + (r % 64));
    for (let k = 0; k < 20; k++) acc = (acc + hash(s)) >>> 0;
  }
  return acc;
}
console.log(work(Number(process.argv[2]) || 2000));	// milliseconds
