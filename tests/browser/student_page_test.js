#!/usr/bin/env node
// A real-browser test of the class session's student page (issue 42).
//
// The loopback tests (tests/app/classroom) check the class server's API from
// C++; they cannot see what a phone's browser makes of the page: whether the
// buttons send, the polling follows the teacher, a reload rejoins with the
// same device, a nickname holding markup stays text, and nothing is wider
// than a 320 px screen. Here Debian's chromium (through puppeteer-core, no
// browser download) plays two students on 360x640 phones against attnviz's
// headless teacher (`attnviz --class --test`), which is driven through its
// stdin/stdout JSON protocol. Each step is checked twice: in the page's DOM
// and in the teacher's `tally`, whose counts must match what the browsers sent.
//
// Usage: node student_page_test.js --attnviz BIN --lesson LESSON.json
//          [--screenshot-dir DIR] [--chromium PATH]
// DIR (or $ATTNVIZ_SCREENSHOT_DIR) receives class-phone.png (joined, a
// choice question), class-phone-revealed.png and class-phone-cell.png; the
// README's docs/class-phone.png comes from here. Every failure prints what was
// expected and what was seen (plus a screenshot when DIR is given) and exits 1.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { isDeepStrictEqual, inspect } = require('node:util');

const started = Date.now();

// ---------------------------------------------------------------- failures

class Failure extends Error {
  constructor(what, expected, seen) {
    super(`${what}\n  expected: ${show(expected)}\n  seen:     ${show(seen)}`);
  }
}

function show(v) {
  return typeof v === 'string' ? v : inspect(v, { depth: 6, breakLength: 140, maxArrayLength: 64 });
}

function check(what, expected, seen) {
  if (!isDeepStrictEqual(expected, seen)) throw new Failure(what, expected, seen);
}

function log(text) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${text}`);
}

// ---------------------------------------------------------------- options

function parseOptions(argv) {
  const o = {
    attnviz: '',
    lesson: '',
    screenshotDir: process.env.ATTNVIZ_SCREENSHOT_DIR || '',
    chromium: process.env.ATTNVIZ_CHROMIUM || '/usr/bin/chromium',
    classCode: '',  // a fixed session code, so the README's phone pictures regenerate the same
  };
  const names = { '--attnviz': 'attnviz', '--lesson': 'lesson', '--screenshot-dir': 'screenshotDir', '--chromium': 'chromium',
                  '--class-code': 'classCode' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) {
      console.error(`usage: node student_page_test.js --attnviz BIN --lesson LESSON.json [--screenshot-dir DIR] [--chromium PATH] [--class-code CODE]\n` +
                    `(unknown or incomplete option: ${argv[i]})`);
      process.exit(2);
    }
    o[key] = argv[i + 1];
  }
  if (!o.attnviz || !o.lesson) {
    console.error('usage: node student_page_test.js --attnviz BIN --lesson LESSON.json [--screenshot-dir DIR] [--chromium PATH] [--class-code CODE]');
    process.exit(2);
  }
  return o;
}

// ---------------------------------------------------------------- the teacher

// attnviz --class --test: one JSON line on stdout when it is serving, then
// one JSON reply per command line on stdin.
class Teacher {
  constructor(bin, lesson, code) {
    this.args = [bin, '--lesson', lesson, '--class', '--test', '--bind', '127.0.0.1', '--port', '0'];
    if (code) this.args.push('--class-code', code);
    this.child = spawn(bin, this.args.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.waiting = null;
    this.stderr = '';
    this.exit = null;
    this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    this.child.on('error', (e) => this.finish({ error: e.message }));
    this.child.on('exit', (code, signal) => this.finish({ code, signal }));
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.wake();
    });
  }

  finish(exit) {
    this.exit = exit;
    this.wake();
  }

  wake() {
    if (this.waiting) this.waiting();
  }

  // The next stdout line that is a JSON object (anything else is logged).
  async nextReply(what, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.lines.length) {
        const line = this.lines.shift();
        try {
          const j = JSON.parse(line);
          if (j && typeof j === 'object' && !Array.isArray(j)) return j;
        } catch (e) { /* not JSON: reported below */ }
        log(`teacher printed a line that is not a JSON object: ${line}`);
      }
      if (this.exit) throw new Failure(what, 'a JSON line from the teacher', `it exited (${show(this.exit)}); its stderr:\n${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Failure(what, `a JSON line within ${timeoutMs / 1000} s`, `nothing; its stderr:\n${this.stderr}`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => { clearTimeout(timer); resolve(); };
      });
      this.waiting = null;
    }
  }

  async send(command) {
    this.child.stdin.write(command + '\n');
    const reply = await this.nextReply(`the teacher's reply to "${command}"`, 15000);
    if ('error' in reply) throw new Failure(`the teacher's reply to "${command}"`, 'a reply without "error"', reply);
    return reply;
  }

  async tally() {
    return this.send('tally');
  }

  // `end`: {"ended": true}, then the process exits 0.
  async end() {
    const reply = await this.send('end');
    check('the reply to "end"', true, reply.ended);
    const deadline = Date.now() + 10000;
    while (!this.exit && Date.now() < deadline) await sleep(50);
    check('how the teacher exits after "end"', { code: 0, signal: null }, this.exit);
  }

  kill() {
    if (!this.exit) this.child.kill('SIGKILL');
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------- a student

// What a student sees, read from the DOM in one go; also what a failure
// prints as "seen".
function pageState() {
  const $ = (id) => document.getElementById(id);
  const shown = (el) => !!el && !el.hidden && el.getClientRects().length > 0;
  const grid = document.querySelector('#form table.grid');
  const number = $('number');
  // `view` is the page's last /api/state reply (a global of its script).
  const last = typeof view !== 'undefined' && view ? view : null;  // eslint-disable-line no-undef
  return {
    joinShown: shown($('join')),
    questionShown: shown($('question')),
    waitShown: shown($('wait')),
    codeField: $('codefield').value,
    code: $('code').textContent,
    nick: $('nick').value,
    prompt: $('prompt').textContent,
    status: $('status').textContent,
    statusClass: $('status').className,
    score: $('score').textContent,
    choices: [...document.querySelectorAll('#form button.choice')].map((b) => ({
      text: b.textContent, picked: b.classList.contains('picked'), disabled: b.disabled })),
    grid: grid && {
      caption: grid.caption ? grid.caption.textContent : null,
      colLabels: [...grid.rows[0].cells].slice(1).map((c) => c.textContent),
      rowLabels: [...grid.rows].slice(1).map((r) => r.cells[0].textContent),
      cells: [...grid.querySelectorAll('td')].map((td) => ({
        r: Number(td.dataset.r), c: Number(td.dataset.c), text: td.textContent,
        picked: td.classList.contains('picked'), truth: td.classList.contains('truth') })),
    },
    number: number && { value: number.value, disabled: number.disabled },
    truth: last && last.truth ? last.truth : null,
    scripts: document.scripts.length,
    device: localStorage.getItem('attnviz-device'),
    scrollWidth: document.scrollingElement.scrollWidth,
  };
}

class Student {
  static async open(browser, name, url) {
    const s = new Student();
    s.name = name;
    s.context = await browser.createIncognitoBrowserContext();  // its own localStorage: its own device
    s.page = await s.context.newPage();
    s.dialogs = [];
    s.errors = [];
    s.page.on('dialog', async (d) => { s.dialogs.push(`${d.type()}: ${d.message()}`); await d.dismiss(); });
    s.page.on('pageerror', (e) => s.errors.push(`script error: ${e.message}`));
    s.page.on('console', (m) => { if (m.type() === 'error') s.errors.push(`console: ${m.text()} (${m.location().url || ''})`); });
    await s.viewport(360);
    await s.page.goto(url, { waitUntil: 'load' });
    return s;
  }

  async viewport(width) {
    await this.page.setViewport({ width, height: 640, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  }

  state() {
    return this.page.evaluate(pageState);
  }

  // Waits until `accept(state)` holds; the page follows the teacher by
  // polling every 1.5 s, so a change shows within about that.
  async waitFor(what, expected, accept, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    let st;
    for (;;) {
      st = await this.state();
      if (accept(st)) return st;
      if (Date.now() > deadline) break;
      await sleep(80);
    }
    throw new Failure(`${this.name}'s page: ${what}`, expected, st);
  }

  async tapChoice(i) {
    const buttons = await this.page.$$('#form button.choice');
    await buttons[i].tap();
  }

  async tapCell(r, c) {
    await (await this.page.$(`#form td[data-r="${r}"][data-c="${c}"]`)).tap();
  }

  async sendNumber(text) {
    await this.page.$eval('#number', (i) => { i.value = ''; });
    if (text) await this.page.type('#number', text);
    await (await this.page.$('#form button.send')).tap();
  }

  // Nothing may be wider than the phone: the page scrolls only downwards
  // (a wide grid scrolls inside its own box).
  async checkFits(when) {
    for (const width of [360, 320]) {
      await this.viewport(width);
      const seen = await this.page.evaluate(() => document.scrollingElement.scrollWidth);
      if (seen > width)
        throw new Failure(`${this.name}'s page ${when}: no horizontal overflow at ${width} px`,
                          `document.scrollingElement.scrollWidth <= ${width}`, seen);
    }
    await this.viewport(360);
  }

  async screenshot(dir, file) {
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    await this.page.screenshot({ path: path.join(dir, file) });
    log(`saved ${path.join(dir, file)}`);
  }
}

// ---------------------------------------------------------------- the test

function lessonQuestion(lesson, kind) {
  const i = lesson.steps.findIndex((s) => s.question && s.question.kind === kind);
  if (i < 0) throw new Failure(`a step of the lesson with a ${kind} question`, 'one', 'none');
  return { step: i + 1, question: lesson.steps[i].question };
}

// The teacher's `step N`: the question is asked, open.
async function ask(teacher, step, form) {
  const reply = await teacher.send(`step ${step}`);
  check(`"step ${step}": the step`, step, reply.step);
  check(`"step ${step}": the phase`, 'open', reply.phase);
  check(`"step ${step}": the question's form`, form, reply.question && reply.question.form);
  return reply.question;
}

// The teacher's tally: {"phase", "students", "answers", "tally"}, where
// "tally" (the counts per choice or cell, the right share, the truth) is
// null while the question is open: the projector shows counts only once
// locked. An expected key is looked up at the top, then in "tally".
async function checkTally(teacher, what, expected) {
  const t = await teacher.tally();
  const seen = {};
  for (const key of Object.keys(expected)) seen[key] = key in t ? t[key] : (t.tally || {})[key];
  check(`the teacher's tally ${what}`, expected, seen);
  return t;
}

// A CSV field as the teacher's CSV writes it (RFC 4180 quoting).
function csvField(v) {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const statusSent = 'Sent, waiting for the reveal. You may change it until the teacher locks.';

// `live` holds what to close at the end (closers, last first) and the phones
// to photograph on a failure (students).
async function run(o, live) {
  const lesson = JSON.parse(fs.readFileSync(o.lesson, 'utf8'));
  const choice = lessonQuestion(lesson, 'choice');
  const cell = lessonQuestion(lesson, 'cell');
  const number = lessonQuestion(lesson, 'number');
  const right = choice.question.answer;
  const choices = choice.question.choices;
  const wrong = right === 0 ? 1 : 0;
  const otherWrong = [...choices.keys()].find((i) => i !== right && i !== wrong) ?? wrong;
  const xssNick = '<script>alert(1)</script>';

  // The teacher, serving.
  const teacher = new Teacher(o.attnviz, o.lesson, o.classCode);
  live.closers.push(() => teacher.kill());
  const hello = await teacher.nextReply(`the first line of ${teacher.args.join(' ')}`, 60000);
  if (typeof hello.join !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+$/.test(hello.join) ||
      typeof hello.code !== 'string' || !/^[A-Z0-9]{4,16}$/.test(hello.code))
    throw new Failure('the teacher\'s first line', '{"join": "http://127.0.0.1:PORT", "code": "K7M3QX", "step": 1}', hello);
  const { join, code } = hello;
  log(`teacher serving at ${join}, code ${code}`);
  const q1 = await ask(teacher, choice.step, 'choice');
  check('the choice question\'s choices', choices, q1.choices);

  // Two phones: Ada follows the QR code (the code in the address), the
  // other types the code (in lower case) and a nickname holding markup.
  const puppeteer = require('puppeteer-core');
  const browser = await puppeteer.launch({
    executablePath: o.chromium,
    headless: 'new',
    // --no-sandbox: the test may run as root (CI containers); the page is our own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  live.closers.push(() => browser.close());
  const ada = await Student.open(browser, 'Ada', `${join}/?code=${code}`);
  const eve = await Student.open(browser, 'Eve', `${join}/`);
  live.students.push(ada, eve);
  log(`chromium ${await browser.version()} opened two phones`);

  await eve.checkFits('before joining');
  check('Ada\'s code field, filled from the address', code, (await ada.state()).codeField);
  await ada.page.type('#nick', 'Ada');
  await ada.page.tap('#joinbtn');
  await eve.page.type('#codefield', code.toLowerCase());
  await eve.page.type('#nick', xssNick);
  await eve.page.tap('#joinbtn');
  for (const s of [ada, eve]) {
    await s.waitFor('joined, showing the choice question',
      { joinShown: false, questionShown: true, code, prompt: q1.prompt, choices, status: 'Answer, then wait for the reveal.' },
      (st) => !st.joinShown && st.questionShown && st.code === code && st.prompt === q1.prompt &&
              isDeepStrictEqual(st.choices.map((c) => c.text), choices) && st.status === 'Answer, then wait for the reveal.');
  }
  await checkTally(teacher, 'after two joins', { phase: 'open', students: 2, answers: 0 });
  await ada.checkFits('on a choice question');
  await ada.screenshot(o.screenshotDir, 'class-phone.png');
  log('two students joined; the choice question shows');

  // Choice: Ada answers, changes her mind; Eve answers.
  const counts = (picks) => choices.map((_, i) => picks.filter((p) => p === i).length);
  await ada.tapChoice(wrong);
  await ada.waitFor(`choice ${wrong} picked and sent`, { picked: wrong, status: statusSent },
    (st) => st.choices[wrong].picked && st.choices.filter((c) => c.picked).length === 1 && st.status === statusSent);
  await checkTally(teacher, 'after Ada\'s first answer', { phase: 'open', answers: 1, tally: null });
  // The counts show once locked; re-opened, the answers stay and may change.
  check('the reply to "lock"', 'locked', (await teacher.send('lock')).phase);
  await checkTally(teacher, 'after Ada\'s first answer, locked', { answers: 1, choice_counts: counts([wrong]), right: -1 });
  check('the reply to "reopen"', 'open', (await teacher.send('reopen')).phase);
  await ada.waitFor('re-opened', { status: statusSent, disabled: 'no choice' },
    (st) => st.status === statusSent && st.choices.every((c) => !c.disabled));
  await ada.tapChoice(right);
  await ada.waitFor(`choice ${right} picked instead`, { picked: right },
    (st) => st.choices[right].picked && st.choices.filter((c) => c.picked).length === 1);
  await checkTally(teacher, 'after Ada changed her answer', { phase: 'open', answers: 1 });
  await eve.tapChoice(otherWrong);
  await eve.waitFor(`choice ${otherWrong} picked`, { picked: otherWrong },
    (st) => st.choices[otherWrong].picked && st.status === statusSent);
  await checkTally(teacher, 'after Eve\'s answer', { phase: 'open', students: 2, answers: 2 });
  log('choice answered, changed and counted');

  // The teacher locks: the buttons turn off, and an answer sent by a page
  // that has not polled since is refused, the page saying why.
  check('the reply to "lock"', 'locked', (await teacher.send('lock')).phase);
  for (const s of [ada, eve]) {
    await s.waitFor('locked', { status: 'Answers are locked. Waiting for the reveal.', disabled: 'every choice' },
      (st) => st.status === 'Answers are locked. Waiting for the reveal.' && st.choices.every((c) => c.disabled));
  }
  const refused = await ada.page.evaluate(async (i) => {
    await send({ choice: i });  // eslint-disable-line no-undef
    return document.getElementById('status').textContent;
  }, wrong);
  if (!/locked/.test(refused)) throw new Failure('Ada\'s page after answering a locked question', 'a status saying answers are locked', refused);
  // The browser logs the refusal (409) as a console error: that one is expected.
  const logged = ada.errors.splice(0);
  if (logged.length !== 1 || !/409/.test(logged[0])) throw new Failure('Ada\'s console after the refused answer', 'one error, the 409', logged);
  await checkTally(teacher, 'after an answer to the locked question (Ada\'s change counted, the late one not)',
    { phase: 'locked', answers: 2, choice_counts: counts([right, otherWrong]) });
  log(`locked; a late answer was refused ("${refused}")`);

  // The reveal: each phone says right or wrong, and the right answer.
  check('the reply to "reveal"', 'revealed', (await teacher.send('reveal')).phase);
  const truthText = `The answer: ${choices[right]}.`;
  await ada.waitFor('revealed: right', { status: `${truthText} You were right.`, statusClass: 'right', score: 'Your score: 1 of 1' },
    (st) => st.status === `${truthText} You were right.` && st.statusClass === 'right' && st.score === 'Your score: 1 of 1');
  await eve.waitFor('revealed: wrong', { status: `${truthText} Yours was not it.`, statusClass: 'wrong', score: 'Your score: 0 of 1' },
    (st) => st.status === `${truthText} Yours was not it.` && st.statusClass === 'wrong' && st.score === 'Your score: 0 of 1');
  await checkTally(teacher, 'after the reveal', { phase: 'revealed', answers: 2, right: 1, right_choice: right, choice_counts: counts([right, otherWrong]) });
  await ada.checkFits('after a reveal');
  await ada.screenshot(o.screenshotDir, 'class-phone-revealed.png');
  log('revealed: one right, one wrong');

  // Cell: the grid with its labels and no numbers; each phone taps a cell.
  const q2 = await ask(teacher, cell.step, 'cell');
  const gridOk = (st) => st.grid && st.grid.caption === q2.grid && isDeepStrictEqual(st.grid.colLabels, q2.col_labels) &&
    isDeepStrictEqual(st.grid.rowLabels, q2.row_labels) && st.grid.cells.length === q2.rows * q2.cols;
  for (const s of [ada, eve]) {
    const st = await s.waitFor('the cell question\'s grid',
      { prompt: q2.prompt, caption: q2.grid, colLabels: q2.col_labels, rowLabels: q2.row_labels, cells: q2.rows * q2.cols },
      (x) => x.prompt === q2.prompt && gridOk(x) && x.status === 'Answer, then wait for the reveal.');
    const filled = st.grid.cells.filter((c) => c.text !== '');
    if (filled.length) throw new Failure(`${s.name}'s grid: cells without numbers (they would give the answer away)`, 'every cell empty', filled);
  }
  const row = Math.min(cell.question.row ?? 0, q2.rows - 1);
  const picks = { Ada: [row, 0], Eve: [row, q2.cols - 1] };
  const cellCounts = new Array(q2.rows * q2.cols).fill(0);
  for (const s of [ada, eve]) {
    const [r, c] = picks[s.name];
    await s.tapCell(r, c);
    await s.waitFor(`cell (${r}, ${c}) picked and sent`, { picked: [r, c], status: statusSent },
      (st) => st.grid.cells.some((x) => x.r === r && x.c === c && x.picked) && st.status === statusSent);
    cellCounts[r * q2.cols + c] += 1;
  }
  await checkTally(teacher, 'after two cells', { phase: 'open', answers: 2 });
  await ada.checkFits('on a cell question');
  await ada.screenshot(o.screenshotDir, 'class-phone-cell.png');
  check('the reply to "reveal" (cell)', 'revealed', (await teacher.send('reveal')).phase);
  let cellRight = 0;
  let outlined = null;
  for (const s of [ada, eve]) {
    const st = await s.waitFor('the cell revealed', { status: 'The right cell is outlined in green. …', truth: 'some cell outlined' },
      (x) => x.status.startsWith('The right cell is outlined in green.') && x.grid.cells.some((c) => c.truth));
    const [r, c] = picks[s.name];
    const isRight = st.grid.cells.some((x) => x.r === r && x.c === c && x.truth);
    const verdict = isRight ? 'You were right.' : 'Yours was not it.';
    check(`${s.name}'s verdict on cell (${r}, ${c}) against the outlined cells`, { status: `The right cell is outlined in green. ${verdict}`, statusClass: isRight ? 'right' : 'wrong' },
      { status: st.status, statusClass: st.statusClass });
    cellRight += isRight ? 1 : 0;
    outlined = st.grid.cells.filter((x) => x.truth).map((x) => [x.r, x.c]);
  }
  await checkTally(teacher, 'after the cell\'s reveal',
    { phase: 'revealed', answers: 2, right: cellRight, cell_counts: cellCounts, right_cells: outlined });
  log(`cell question: labels, no numbers, two taps counted, ${cellRight} right`);

  // Number: an empty send is caught on the phone; "0,5" is read as 0.5.
  const q3 = await ask(teacher, number.step, 'number');
  for (const s of [ada, eve]) {
    await s.waitFor('the number question', { prompt: q3.prompt, number: { value: '', disabled: false } },
      (st) => st.prompt === q3.prompt && st.number && !st.number.disabled && st.status === 'Answer, then wait for the reveal.');
  }
  await eve.sendNumber('');
  await eve.waitFor('an empty number refused', { status: 'Type a number first.' }, (st) => st.status === 'Type a number first.');
  await checkTally(teacher, 'after an empty number', { answers: 0 });
  const sent = { Ada: 0.25, Eve: 0.5 };
  await ada.sendNumber('0.25');
  await eve.sendNumber('0,5');
  for (const s of [ada, eve]) await s.waitFor('the number sent', { status: statusSent }, (st) => st.status === statusSent);
  await checkTally(teacher, 'after two numbers', { phase: 'open', answers: 2 });
  await ada.checkFits('on a number question');

  // A reload (the phone locked its screen, the tab was reloaded): the same
  // device rejoins without the form and sees the question still asked.
  for (const s of [ada, eve]) {
    const before = await s.state();
    await s.page.reload({ waitUntil: 'load' });
    const nick = s === ada ? 'Ada' : xssNick;
    await s.waitFor('rejoined after a reload',
      { joinShown: false, questionShown: true, code, prompt: q3.prompt, device: before.device, nick },
      (st) => !st.joinShown && st.questionShown && st.code === code && st.prompt === q3.prompt && !!st.number &&
              st.device === before.device && st.nick === nick);
  }
  await checkTally(teacher, 'after both phones reloaded (no second student)', { students: 2, answers: 2 });
  log('reloaded: both rejoined as the same devices');

  check('the reply to "reveal" (number)', 'revealed', (await teacher.send('reveal')).phase);
  const tolerance = number.question.tolerance ?? 0;
  let numberRight = 0;
  let pageTruth = null;
  for (const s of [ada, eve]) {
    const st = await s.waitFor('the number revealed', { status: 'The value: …' },
      (x) => x.status.startsWith('The value: ') && x.truth && typeof x.truth.number === 'number');
    const truth = st.truth.number;
    const isRight = Math.abs(sent[s.name] - truth) <= tolerance + 1e-9;
    const expected = `The value: ${Number(truth.toPrecision(4))}. ${isRight ? 'You were right.' : 'Yours was not it.'}`;
    check(`${s.name}'s verdict on ${sent[s.name]} (truth ${truth}, tolerance ${tolerance})`, expected, st.status);
    numberRight += isRight ? 1 : 0;
    pageTruth = truth;
  }
  const t3 = await checkTally(teacher, 'after the number\'s reveal', { phase: 'revealed', answers: 2, right: numberRight, truth: pageTruth });
  check('the number tally\'s bins, summed', 2, (t3.tally.bins || []).reduce((a, b) => a + b, 0));
  log(`number question: sent, reloaded, revealed (${numberRight} right)`);

  // The nickname holding markup stayed text: no dialog, no script added,
  // and it is in the teacher's CSV exactly as typed.
  for (const s of [ada, eve]) {
    const st = await s.state();
    check(`${s.name}'s page: dialogs opened (a nickname's script would alert)`, [], s.dialogs);
    check(`${s.name}'s page: script elements`, 1, st.scripts);
    check(`${s.name}'s page: script errors and console errors`, [], s.errors);
  }
  const csv = (await teacher.send('csv')).csv;
  const rows = csv.split('\r\n').filter((l) => l);
  check('the CSV\'s header', 'step,form,phase,prompt,answers,right,share_right,counts', rows[0]);
  // A row per question asked, in the order first asked (step 1's may come
  // first: the teacher starts on it).
  check('the CSV\'s question rows (step, form, phase), sorted',
    [`${choice.step},choice,revealed`, `${cell.step},cell,revealed`, `${number.step},number,revealed`].sort(),
    rows.slice(1).map((l) => l.split(',').slice(0, 3).join(',')).sort());
  const named = (await teacher.send('csv nicknames')).csv;
  for (const prefix of [['Ada', choice.step, choices[right], 'yes'], [xssNick, choice.step, choices[otherWrong], 'no'],
                        [xssNick, number.step, '0.5']].map((fields) => fields.map(csvField).join(','))) {
    if (!named.split('\r\n').some((l) => l.startsWith(prefix)))
      throw new Failure('the CSV with nicknames', `a line starting ${prefix}`, named);
  }
  log('no script ran; the CSV holds the nicknames as typed');

  await teacher.end();
  log('the teacher ended the session and exited 0');
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const live = { closers: [], students: [] };
  const watchdog = setTimeout(() => {
    console.error('FAILED: the whole test took over 120 s');
    process.exit(1);
  }, 120000);
  let failed = null;
  try {
    await run(o, live);
  } catch (e) {
    failed = e;
    console.error(`FAILED: ${e instanceof Failure ? e.message : e.stack}`);
    const dir = o.screenshotDir || os.tmpdir();
    for (const s of live.students) {
      const file = path.join(dir, `class-phone-failure-${s.name}.png`);
      try {
        fs.mkdirSync(dir, { recursive: true });
        await s.page.screenshot({ path: file });
        console.error(`  ${s.name}'s page at the failure: ${file}`);
      } catch (ignored) { /* the browser is gone */ }
    }
  }
  for (const f of live.closers.reverse()) {
    try { await f(); } catch (ignored) { /* already closed */ }
  }
  clearTimeout(watchdog);
  if (failed) process.exit(1);
  log('PASSED');
}

main();
