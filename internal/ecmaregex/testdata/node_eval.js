// Reads [{p, f, s: [...]}] as JSON on stdin and writes, for each case,
// {valid, m: [...]}: whether new RegExp(p, "u" + f) compiles and what
// its test method answers on each string of s.
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const cases = JSON.parse(Buffer.concat(chunks).toString());
  const out = cases.map((c) => {
    let re;
    try {
      re = new RegExp(c.p, "u" + c.f);
    } catch (e) {
      return { valid: false, m: [] };
    }
    return { valid: true, m: c.s.map((s) => re.test(s)) };
  });
  process.stdout.write(JSON.stringify(out));
});
