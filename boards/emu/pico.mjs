// An emulated Raspberry Pi Pico for eboard: rp2040js running a UF2, with the world the
// board's chip sees (the reed matrix, the WS2812 chain, a flash that outlives the process).
//
//   node pico.mjs --flash FILE [--uf2 UF2] [--bootrom ROM] [--control FD]
//
// fd 0/1: the Pico's USB CDC serial, raw bytes (host/link/pico.py puts a pseudo-terminal on it).
// FD:     a socket, the control channel, one line a request, one line a reply, in order
//         (boards/emu/README.md lists the requests: the hands, the LED frames, faults).
// FILE:   the 2 MB flash; made from the UF2 when it does not exist, and written through
//         at every erase or program, so that a kill at any instant is a power cut.
//
// The five gaps of rp2040js 1.4.1 (../shared/pico/README.md) are worked around here:
// the USB OUT endpoint is answered only when there is data (1), an idle core with no alarm
// lets time pass (2), PIO is stepped in lockstep with the core (3), the boot ROM's flash
// erase and program are BKPTs done here with the W25Q16's times (4), and UART0's TX
// interrupt is raised only when its FIFO is really empty (5).

import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RP2040, USBCDC, GPIOPinState } from 'rp2040js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHARED = path.resolve(HERE, '..', '..', '..', 'shared', 'pico');
const FLASH_SIZE = 2 * 1024 * 1024; // W25Q16
const ERASE_NS_PER_SECTOR = 45e6; // 45 ms per 4 KB sector (W25Q16 typical)
const PROGRAM_NS_PER_PAGE = 0.4e6; // 0.4 ms per 256-byte page
const NS_PER_CYCLE = 8; // 125 MHz
const PIO_CYCLES_PER_STEP = 15.625; // 8 PIO steps per emulated microsecond
const LATCH_NS = 50e3; // a WS2812 latches its colour after 50 us of a low line
const ROW_PINS = [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 26]; // boards/pico.py
const COL_PINS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const LED_PIN = 27;
const N = 12;

function parseArgs(argv) {
  const a = { uf2: null, bootrom: path.join(SHARED, 'bootrom-b1.bin'), flash: null, control: null };
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in a) || i + 1 >= argv.length) {
      die(`unknown argument ${argv[i]} (--flash FILE [--uf2 UF2] [--bootrom ROM] [--control FD])`);
    }
    a[key] = argv[i + 1];
  }
  if (!a.flash) die('give --flash FILE');
  return a;
}

function die(msg) {
  process.stderr.write(`pico.mjs: ${msg}\n`);
  process.exit(2);
}

function readFile(file, what) {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    die(`cannot read the ${what} ${file}: ${e.message}`);
  }
}

// ---- the flash: a file, written through ------------------------------------------------

function loadUf2(data, flash) {
  let blocks = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    if (addr < 0x10000000 || addr + size > 0x10000000 + FLASH_SIZE) continue;
    flash.set(data.subarray(off + 32, off + 32 + size), addr - 0x10000000);
    blocks++;
  }
  if (!blocks) die('no UF2 block for the flash in that file');
  return blocks;
}

const args = parseArgs(process.argv);
// rp2040js warns on every read of the inter-core FIFO (MicroPython polls it): quiet
if (!process.env.PICO_DEBUG) console.warn = () => {};
const flashImage = new Uint8Array(FLASH_SIZE).fill(0xff);
const fresh = !fs.existsSync(args.flash);
if (!fresh) {
  const old = readFile(args.flash, 'flash image');
  flashImage.set(old.subarray(0, FLASH_SIZE));
}
if (fresh || args.uf2) {
  // A UF2 is copied over what the flash holds, as the boot ROM's drive does.
  loadUf2(readFile(args.uf2 || path.join(SHARED, 'micropython-RPI_PICO.uf2'), 'UF2'), flashImage);
  fs.writeFileSync(args.flash, flashImage);
}
const flashFd = fs.openSync(args.flash, 'r+');

// The flash chip's unique id, 8 bytes, as every W25Q16 has its own (read with command 0x4B:
// pico-sdk reads it at boot; MicroPython's machine.unique_id(), the board id `pico-...`).
// Drawn at random for a flash file that has none and kept beside it (FILE.id), so that
// every flash file is a board of its own and keeps its id across restarts; a copy of the
// file without its FILE.id is another chip.
const idPath = args.flash + '.id';
let flashId = null;
try {
  const kept = fs.readFileSync(idPath, 'utf8').trim();
  if (/^[0-9a-f]{16}$/.test(kept)) flashId = Buffer.from(kept, 'hex');
} catch (e) {
  // a flash with no id yet
}
if (!flashId) {
  flashId = crypto.randomBytes(8);
  fs.writeFileSync(idPath, flashId.toString('hex') + '\n');
}
const bootrom = new Uint32Array(readFile(args.bootrom, 'boot ROM').buffer.slice(0));

// ---- the world: switches, hands, LEDs ------------------------------------------------------

const world = {
  occ: new Uint8Array(N * N), // 1 = a piece (magnet) on the square: its reed switch closed
  stuck: new Int8Array(N * N).fill(-1), // a planted fault: -1 none, 0 stuck open, 1 stuck closed
  dead: new Uint8Array(N * N), // a planted dead LED (always dark)
  diodes: true,
  frame: null, // the last latched frame: 144 colours (r, g, b), physical order
  frames: 0,
  frameAt: 0, // emulated ns of its last word
  chain: [], // words of the frame going out
  lastWord: 0,
  lastEvent: 0, // emulated ns of the last hands event
  firstEdge: -1, // emulated ns of the first LED-pin edge after it
  edges: 0,
  lineAt: 0, // emulated ns a line's last byte (a newline) was handed to the chip
  lineEdge: -1, // emulated ns of the first LED-pin edge after it
  scanAt: 0, // emulated ns of the last scan's start (the first row driven high)
  scans: 0, // scans since the control channel last asked (`scans`)
  scanGap: 0, // the longest time between two scans' starts since then, ns
  scanGapAt: 0, // emulated ns of the scan that began that gap
};

// The pieces stay where they are when the power goes: the switches are kept beside the
// flash (FILE.switches), as the virtual board keeps its own.
const switchesPath = args.flash + '.switches';
try {
  const kept = fs.readFileSync(switchesPath);
  if (kept.length === N * N) world.occ.set(kept);
} catch (e) {
  // a board with no pieces on it yet
}

function keepSwitches() {
  fs.writeFileSync(switchesPath, world.occ);
}

function closed(p) {
  return world.stuck[p] >= 0 ? world.stuck[p] === 1 : world.occ[p] === 1;
}

function chainToSquare(i) {
  const row = Math.floor(i / N);
  return row * N + (row % 2 === 0 ? i % N : N - 1 - (i % N));
}

// ---- the chip -------------------------------------------------------------------------

let mcu = null;
let cdc = null;
let epoch = 0; // emulated ns before the current power-on (the clock restarts at each reset)
let bootAt = 0;
let stallUntil = 0; // the core waits for the flash until then
let flashOp = null;
let cutAt = null; // {op, fraction}: a power cut planted in a coming flash operation
let flashOps = 0;
let flashErases = 0; // of them, erases
let resets = { total: 0, watchdog: 0 };
let resetPending = false;
let helloAt = -1;
let idleToHello = 0; // emulated ns the core slept between the reset and the hello
let lineBuf = '';
let pioDebt = 0;
const serialIn = []; // chunks (Buffers) from the host not yet read by the Pico
let serialInOff = 0; // bytes of serialIn[0] already read
let serialInLen = 0; // bytes in serialIn not yet read
let pendingRead = -1; // the size of an OUT read the Pico waits on (gap 1)
let connected = false;
// bytes handed to the device's OUT endpoint and taken from its IN endpoint since power-on,
// and the emulated ns of the last of each (control `serial`: where a lost line was lost)
// and of the last byte that came from the host (into serialIn)
const serialStats = { in: 0, out: 0, inAt: 0, outAt: 0, arrivedAt: 0 };
// `await TEXT`: the emulated ns at which the chip next says TEXT (-1: not yet)
const watch = { text: null, buf: '', at: -1 };

function now() {
  return epoch + mcu.clock.nanos;
}

function boot() {
  if (mcu) epoch += mcu.clock.nanos;
  mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error(n, m) { process.stderr.write(`${n}: ${m}\n`); } };
  mcu.loadBootrom(bootrom);
  mcu.flash.set(flashImage);
  patchFlashRom();
  mcu.onBreak = onBreak;
  for (const pio of mcu.pio) pio.run = () => {}; // stepped here, in lockstep (gap 3)
  for (const sm of mcu.pio[0].machines) {
    const write = sm.writeFIFO.bind(sm);
    sm.writeFIFO = (value) => {
      if (sm.enabled) ledWord(value >>> 0);
      write(value);
    };
  }
  for (const uart of mcu.uart) {
    // gap 5: the TX interrupt is raised when a byte has gone out (the FIFO is empty again
    // at once here), not again at every ICR write
    uart.checkInterrupts = () => {
      uart.rp2040.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
    };
    const write = uart.writeUint32.bind(uart);
    uart.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset === 0) {
        uart.interruptStatus |= 1 << 5;
        uart.checkInterrupts();
      }
    };
  }
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    if (watchdog.reason === 1) resets.watchdog++; // a timeout, not a requested reset
    // the chip resets now: stop the watchdog (rp2040js would re-arm it at the same
    // instant, for ever)
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    resetPending = true;
  };
  for (const pin of ROW_PINS) mcu.gpio[pin].addListener(updateColumns);
  mcu.gpio[ROW_PINS[0]].addListener(noteScan);
  world.scanAt = 0;
  mcu.gpio[LED_PIN].addListener(() => {
    world.edges++;
    if (world.firstEdge < 0 && world.lastEvent) world.firstEdge = now();
    if (world.lineEdge < 0 && world.lineAt) world.lineEdge = now();
  });
  patchFlashId();
  cdc = new USBCDC(mcu.usbCtrl);
  connected = false;
  pendingRead = -1;
  serialIn.length = 0;
  serialInOff = 0;
  serialInLen = 0;
  cdc.onDeviceConnected = () => {
    connected = true;
  };
  cdc.onSerialData = (buf) => {
    serialStats.out += buf.length;
    serialStats.outAt = now();
    process.stdout.write(Buffer.from(buf));
    noteOutput(buf);
  };
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return; // as rp2040js's own USBCDC
    pendingRead = size; // gap 1: answered when the host has sent something
    feedSerial();
  };
  stallUntil = 0;
  flashOp = null;
  bootAt = now();
  helloAt = -1;
  idleToHello = 0;
  lineBuf = '';
  world.chain = [];
  // The boot ROM's reset path waits for the second core, which rp2040js does not run:
  // start where it would go next, at boot2 in flash (as rp2040js's own MicroPython demo).
  mcu.core.PC = 0x10000000;
  updateColumns();
}

function noteOutput(buf) {
  if (watch.text !== null && watch.at < 0) {
    watch.buf += Buffer.from(buf).toString('latin1');
    if (watch.buf.includes(watch.text)) watch.at = now();
    else if (watch.buf.length > 4096) watch.buf = watch.buf.slice(-watch.text.length);
  }
  if (helloAt >= 0) return;
  lineBuf += Buffer.from(buf).toString('latin1');
  if (lineBuf.includes('hello eboard')) helloAt = now() - bootAt;
  if (lineBuf.length > 4096) lineBuf = lineBuf.slice(-64);
}

function feedSerial() {
  if (pendingRead < 0 || !serialInLen || !connected) return;
  const n = Math.min(pendingRead, serialInLen);
  const chunk = new Uint8Array(n);
  for (let got = 0; got < n;) {
    const head = serialIn[0];
    const k = Math.min(n - got, head.length - serialInOff);
    chunk.set(head.subarray(serialInOff, serialInOff + k), got);
    got += k;
    serialInOff += k;
    if (serialInOff === head.length) {
      serialIn.shift();
      serialInOff = 0;
    }
  }
  serialInLen -= n;
  pendingRead = -1;
  serialStats.in += n;
  serialStats.inAt = now();
  if (chunk.includes(10)) {
    world.lineAt = serialStats.inAt;
    world.lineEdge = -1;
  }
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, chunk);
}

// The matrix: rows driven high one at a time, columns with pull-downs.  A closed switch
// joins its row to its column through a diode (anode on the row): current flows from the
// row to the column only.  Without diodes (a test's board) it flows both ways, and a
// column is read high when any path leads to it from a row driven high (a driven-low row
// it also reaches fights it; the model takes the worse outcome, a ghost).
// A scan begins when the firmware drives the first row high: the time between two such
// starts is how long the board did not look at its switches (control `scans`).
function noteScan() {
  if (mcu.gpio[ROW_PINS[0]].value !== GPIOPinState.High) return;
  const t = now();
  if (world.scanAt && t - world.scanAt > world.scanGap) {
    world.scanGap = t - world.scanAt;
    world.scanGapAt = world.scanAt;
  }
  world.scanAt = t;
  world.scans++;
}

function updateColumns() {
  if (!mcu) return;
  const high = new Uint8Array(N);
  for (let r = 0; r < N; r++) high[r] = mcu.gpio[ROW_PINS[r]].value === GPIOPinState.High ? 1 : 0;
  const colHigh = new Uint8Array(N);
  if (world.diodes) {
    for (let r = 0; r < N; r++) {
      if (!high[r]) continue;
      for (let c = 0; c < N; c++) if (closed(r * N + c)) colHigh[c] = 1;
    }
  } else {
    const rowReached = Uint8Array.from(high);
    let grew = true;
    while (grew) {
      grew = false;
      for (let r = 0; r < N; r++) {
        for (let c = 0; c < N; c++) {
          if (!closed(r * N + c)) continue;
          if (rowReached[r] && !colHigh[c]) { colHigh[c] = 1; grew = true; }
          if (colHigh[c] && !rowReached[r]) { rowReached[r] = 1; grew = true; }
        }
      }
    }
  }
  for (let c = 0; c < N; c++) {
    const pin = mcu.gpio[COL_PINS[c]];
    const v = colHigh[c] === 1;
    if (pin.rawInputValue !== v) pin.setInputValue(v);
  }
}

// The WS2812 chain, decoded from the words PIO 0 takes (GRB in the top 24 bits): a frame
// is the words since the line last stayed low for 50 us.
function ledWord(w) {
  const t = now();
  if (world.chain.length && t - world.lastWord > LATCH_NS) latch();
  world.chain.push(w);
  world.lastWord = t;
}

function latch() {
  const chain = world.chain;
  if (!chain.length) return;
  const frame = world.frame ? world.frame.slice() : new Array(N * N).fill('000000');
  for (let i = 0; i < chain.length && i < N * N; i++) {
    const p = chainToSquare(i);
    const w = chain[i];
    const g = w >>> 24, r = (w >>> 16) & 255, b = (w >>> 8) & 255;
    frame[p] = world.dead[p] ? '000000' : hex(r) + hex(g) + hex(b);
  }
  world.frame = frame;
  world.frames++;
  world.frameAt = world.lastWord;
  world.chain = [];
}

function hex(v) {
  return v.toString(16).padStart(2, '0');
}

function latchIfQuiet() {
  if (world.chain.length && now() - world.lastWord > LATCH_NS) latch();
}

// ---- the flash's erase and program (gap 4) ---------------------------------------------

function romLookup(code) {
  const rom = new Uint8Array(bootrom.buffer);
  let p = rom[0x14] | (rom[0x15] << 8);
  for (;;) {
    const c = rom[p] | (rom[p + 1] << 8);
    if (!c) return -1;
    if (c === code) return rom[p + 2] | (rom[p + 3] << 8);
    p += 4;
  }
}

const BKPT_ERASE = 0xe1;
const BKPT_PROGRAM = 0xe2;
const ROM_ERASE = romLookup('R'.charCodeAt(0) | ('E'.charCodeAt(0) << 8));
const ROM_PROGRAM = romLookup('R'.charCodeAt(0) | ('P'.charCodeAt(0) << 8));
if (ROM_ERASE < 0 || ROM_PROGRAM < 0) die('no flash_range_erase / flash_range_program in that boot ROM');

function patchFlashRom() {
  for (const [fn, bkpt] of [[ROM_ERASE, BKPT_ERASE], [ROM_PROGRAM, BKPT_PROGRAM]]) {
    const a = fn & ~1;
    const word = mcu.bootrom[a >> 2];
    const shift = (a & 2) * 8;
    mcu.bootrom[a >> 2] = ((word & ~(0xffff << shift)) | ((0xbe00 | bkpt) << shift)) >>> 0;
  }
}

// The flash's unique id (command 0x4B): pico-sdk's flash_do_cmd forces the chip select low
// through IO_QSPI's SS override, then writes and reads the SSI's data register a byte at a
// time; rp2040js answers every read with 0 (so every emulated Pico was pico-0000...).
// Within a forced select, the flash's answer is queued byte for byte: the id after the
// command and 4 dummy bytes, 0 for anything else (as before).
const SSI_DR0 = 0x60;
const QSPI_SS_CTRL = 0x0c;
function patchFlashId() {
  const ssi = mcu.peripherals[0x18000];
  const qspi = mcu.peripherals[0x40018];
  const spi = { ctrl: 0, low: false, pos: 0, cmd: 0, rx: [] };
  const qspiRead = qspi.readUint32.bind(qspi);
  const qspiWrite = qspi.writeUint32.bind(qspi);
  qspi.readUint32 = (offset) => (offset === QSPI_SS_CTRL ? spi.ctrl : qspiRead(offset));
  qspi.writeUint32 = (offset, value) => {
    if (offset !== QSPI_SS_CTRL) return qspiWrite(offset, value);
    spi.ctrl = value >>> 0;
    spi.low = ((value >>> 8) & 3) === 2; // OUTOVER: 2 drives the select low
    if (spi.low) {
      spi.pos = 0;
      spi.rx.length = 0;
    }
  };
  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  ssi.writeUint32 = (offset, value) => {
    if (offset !== SSI_DR0 || !spi.low) return ssiWrite(offset, value);
    const pos = spi.pos++;
    if (pos === 0) spi.cmd = value & 0xff;
    spi.rx.push(spi.cmd === 0x4b && pos >= 5 && pos < 13 ? flashId[pos - 5] : 0);
  };
  ssi.readUint32 = (offset) => {
    if (offset !== SSI_DR0 || !spi.low) return ssiRead(offset);
    return spi.rx.length ? spi.rx.shift() : 0;
  };
}

function onBreak(code) {
  const core = mcu.core;
  const regs = core.registers;
  if (code !== BKPT_ERASE && code !== BKPT_PROGRAM) {
    // the firmware's own breakpoint (a panic): a real chip with no debugger attached
    // locks up; the watchdog, if it runs, resets it
    if (!core.halted) {
      process.stderr.write(`pico.mjs: breakpoint ${code} at ${(core.PC - 2).toString(16)} lr=${regs[14].toString(16)} sp+12=${mcu.readUint32(core.SP + 12).toString(16)} fmt=${mcu.readUint32(core.SP + 16).toString(16)}\n`);
    }
    core.halted = true;
    core.PC -= 2;
    return;
  }
  const addr = regs[0] >>> 0;
  const count = (code === BKPT_ERASE ? regs[1] : regs[2]) >>> 0;
  let data = null;
  let dur;
  if (code === BKPT_ERASE) {
    dur = Math.ceil(count / 4096) * ERASE_NS_PER_SECTOR;
  } else {
    data = new Uint8Array(count);
    for (let i = 0; i < count; i++) data[i] = mcu.readUint8((regs[1] + i) >>> 0);
    dur = Math.ceil(count / 256) * PROGRAM_NS_PER_PAGE;
  }
  if (addr + count > FLASH_SIZE) {
    process.stderr.write(`pico.mjs: flash operation beyond the flash at ${addr}\n`);
  }
  flashOps++;
  if (code === BKPT_ERASE) flashErases++;
  flashOp = { erase: code === BKPT_ERASE, addr, count, data, start: now(), dur, done: 0, n: flashOps };
  stallUntil = now() + dur;
  core.PC = regs[14] & ~1; // return from the ROM function
}

// Applies the part of the flash operation done by the emulated time t (an erase sets
// bytes to 0xff in address order, a program clears bits), written through to the file.
function flashProgress(t) {
  const op = flashOp;
  let upto = Math.min(op.count, Math.floor((op.count * (t - op.start)) / op.dur));
  if (cutAt && cutAt.op === op.n) upto = Math.min(upto, Math.floor(op.count * cutAt.fraction));
  if (upto > op.done) {
    const from = op.addr + op.done;
    const to = Math.min(op.addr + upto, FLASH_SIZE);
    for (let a = from; a < to; a++) {
      const v = op.erase ? 0xff : flashImage[a] & op.data[a - op.addr];
      flashImage[a] = v;
      mcu.flash[a] = v;
    }
    if (to > from) fs.writeSync(flashFd, flashImage, from, to - from, from);
    op.done = upto;
  }
  if (cutAt && cutAt.op === op.n && op.done >= Math.floor(op.count * cutAt.fraction)) {
    process.stderr.write(`pico.mjs: power cut in flash operation ${op.n} (${op.erase ? 'an erase' : 'a program'}) at byte ${op.done} of ${op.count}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
  if (op.done >= op.count) flashOp = null;
}

// ---- the control channel ----------------------------------------------------------------

const queue = []; // requests in order: {words, reply}
let waitUntil = -1;

function square(word) {
  const p = Number(word);
  if (!/^\d+$/.test(word) || p >= N * N) throw new Error(`no square ${word} (0-143)`);
  return p;
}

function handle(words) {
  const [cmd, a, b] = words;
  switch (cmd) {
    case 'lift':
    case 'place': {
      const p = square(a);
      world.occ[p] = cmd === 'place' ? 1 : 0;
      keepSwitches();
      world.lastEvent = now();
      world.firstEdge = -1;
      updateColumns();
      return `ok ${cmd} ${p} ${Math.round(now() / 1000)}`;
    }
    case 'set': {
      if (!a || a.length !== N * N || /[^01]/.test(a)) throw new Error('set needs 144 digits 0/1');
      for (let p = 0; p < N * N; p++) world.occ[p] = a[p] === '1' ? 1 : 0;
      keepSwitches();
      updateColumns();
      return 'ok set';
    }
    case 'occupancy':
      return 'ok occupancy ' + Array.from(world.occ).join('');
    case 'stuck': {
      const p = square(a);
      if (!['0', '1', '-'].includes(b)) throw new Error('stuck P 0|1|-');
      world.stuck[p] = b === '-' ? -1 : Number(b);
      updateColumns();
      return `ok stuck ${p} ${b}`;
    }
    case 'dead': {
      const p = square(a);
      world.dead[p] = b === '-' ? 0 : 1;
      return `ok dead ${p}`;
    }
    case 'diodes':
      world.diodes = a !== '0';
      updateColumns();
      return `ok diodes ${world.diodes ? 1 : 0}`;
    case 'frame': {
      latchIfQuiet();
      const f = world.frame ? world.frame.join('') : '-';
      return `ok frame ${world.frames} ${Math.round(world.frameAt / 1000)} ${f}`;
    }
    case 'edge':
      return `ok edge ${world.firstEdge < 0 ? -1 : Math.round((world.firstEdge - world.lastEvent) / 1000)} ${world.edges}`;
    case 'lineedge':
      return `ok lineedge ${world.lineEdge < 0 ? -1 : Math.round((world.lineEdge - world.lineAt) / 1000)}`;
    case 'scans': {
      // the scans and the longest gap between two since the last ask; then counted afresh
      const r = `ok scans ${world.scans} ${Math.round(world.scanGap / 1000)} ${Math.round(world.scanGapAt / 1000)}`;
      world.scans = 0;
      world.scanGap = 0;
      return r;
    }
    case 'hold':
      held = a === '1';
      if (!held) frozen = false;
      return `ok hold ${held ? 1 : 0}`;
    case 'usb':
      return `ok usb ${connected ? 1 : 0}`;
    case 'serial':
      return `ok serial in ${serialStats.in} queued ${serialInLen} pending ${pendingRead} out ${serialStats.out}` +
        ` at ${Math.round(serialStats.inAt / 1000)} ${Math.round(serialStats.outAt / 1000)} now ${Math.round(now() / 1000)}` +
        ` arrived ${Math.round(serialStats.arrivedAt / 1000)}`;
    case 'await':
      // await TEXT (the rest of the line): note when the chip next says it
      watch.text = words.slice(1).join(' ');
      watch.buf = '';
      watch.at = -1;
      if (!watch.text) throw new Error('await TEXT');
      return `ok await`;
    case 'seen':
      return `ok seen ${watch.at < 0 ? -1 : Math.round(watch.at / 1000)}`;
    case 'id':
      return `ok id ${flashId.toString('hex')}`;
    case 'time':
      return `ok time ${Math.round(now() / 1000)}`;
    case 'hello':
      return `ok hello ${helloAt < 0 ? -1 : Math.round(helloAt / 1000)} ${Math.round(idleToHello / 1000)}`;
    case 'resets':
      return `ok resets ${resets.total} ${resets.watchdog}`;
    case 'cut': {
      // cut K F: the power fails in the K-th flash operation from now, F (0-1) of the way
      const k = Number(a), f = Number(b);
      if (!(k >= 1) || !(f >= 0 && f <= 1)) throw new Error('cut K F (K >= 1, 0 <= F <= 1)');
      cutAt = { op: flashOps + k, fraction: f };
      return `ok cut ${k} ${f}`;
    }
    case 'flashops':
      return `ok flashops ${flashOps} ${flashErases}`;
    case 'reset':
      resetPending = true;
      frozen = false;
      return 'ok reset';
    default:
      throw new Error(`unknown request ${cmd}`);
  }
}

let control = null;

// `sleep MS`: a wait after which the chip stops, busy or not, until the next wait or sleep
// begins (or the host sends a byte, or `hold 0`, `reset`): a script's steps then fall at
// exact emulated instants however late the host sends them (a loaded machine), the only
// time between two sleeps being theirs.
let frozen = false;

function runQueue() {
  while (queue.length) {
    const req = queue[0];
    if (req.words[0] === 'wait' || req.words[0] === 'sleep') {
      const ms = Number(req.words[1]);
      if (!(ms >= 0)) {
        queue.shift();
        control.write(`error ${req.words[0]} MS\n`);
        continue;
      }
      if (waitUntil < 0) waitUntil = now() + ms * 1e6;
      frozen = false;
      if (now() < waitUntil) return;
      waitUntil = -1;
      queue.shift();
      frozen = req.words[0] === 'sleep';
      control.write(`ok ${req.words[0]} ${ms}\n`);
      continue;
    }
    queue.shift();
    let reply;
    try {
      reply = handle(req.words);
    } catch (e) {
      reply = `error ${e.message}`;
    }
    control.write(reply + '\n');
  }
}

// ---- the step loop ----------------------------------------------------------------------

// Emulated time runs free while the hands wait (a script plays as fast as it can);
// otherwise an idle core is held to the wall clock, as a real board is.
let paceOffset = 0; // wall ns - emulated ns at which an idle core may go on
// Held (`hold 1`, for scripts): an idle core's time passes only in the hands' waits, as
// the virtual board's clock does in `sim wait` (and for the USB, DMA and PIO transfers
// under way).
let held = false;

function transferDue() {
  // ns until the first USB or DMA transfer under way finishes (-1: none).  Not only the
  // clock's next alarm: a timer alarm (the firmware's own poll timeout) may come a few us
  // before a USB transfer's end, and a held core must still get there, or the request
  // that transfer carries waits for the hands' next wait (the long runs' lost replies).
  const usb = mcu.usbCtrl;
  const transfers = new Set();
  for (const a of usb.endpointReadAlarms) transfers.add(a.alarm);
  for (const a of usb.endpointWriteAlarms) transfers.add(a.alarm);
  for (const ch of mcu.dma.channels) transfers.add(ch.transferAlarm);
  for (let a = mcu.clock.nextAlarm; a; a = a.next) {
    if (transfers.has(a)) return Math.max(1, a.nanos - mcu.clock.nanos);
  }
  return -1;
}

function wallNs() {
  return Number(process.hrtime.bigint());
}

function pioBusy() {
  for (const pio of mcu.pio) {
    if (pio.stopped) continue;
    for (const sm of pio.machines) if (sm.enabled && !sm.waiting) return true;
  }
  return false;
}

function stepPio(cycles) {
  pioDebt += cycles;
  if (pioDebt < PIO_CYCLES_PER_STEP) return;
  if (!pioBusy()) {
    pioDebt = 0;
    return;
  }
  while (pioDebt >= PIO_CYCLES_PER_STEP) {
    pioDebt -= PIO_CYCLES_PER_STEP;
    for (const pio of mcu.pio) if (!pio.stopped) pio.step();
  }
}

// Lets dt ns pass with the core not running (asleep, or waiting for the flash).
function idle(dt) {
  const clock = mcu.clock;
  while (dt > 0) {
    let step = dt;
    if (pioBusy()) step = Math.min(dt, 1000); // PIO keeps running: 1 us at a time
    const alarm = clock.nanosToNextAlarm;
    if (alarm > 0 && alarm < step) step = alarm;
    clock.tick(step);
    stepPio(step / NS_PER_CYCLE);
    dt -= step;
    if (flashOp) flashProgress(now());
    if (mcu.core.waiting === false && !flashOp && stallUntil <= now()) break;
  }
}

function run() {
  const t0 = wallNs();
  const core = mcu.core;
  const clock = mcu.clock;
  let paced = false;
  while (wallNs() - t0 < 20e6) {
    for (let i = 0; i < 20000; i++) {
      if (frozen) {
        paced = true;
        break;
      }
      if (resetPending) {
        resetPending = false;
        resets.total++;
        boot();
        break;
      }
      const t = now();
      if (waitUntil >= 0 && t >= waitUntil) {
        runQueue(); // a wait's end falls between two instructions, never a slice later
        continue;
      }
      if (stallUntil > t || flashOp) {
        idle(Math.max(1, Math.min(stallUntil - t, 100e3)));
        // A core stalled by the flash is busy, not idle: its time is no debt an idle core
        // must later wait out against the wall clock (after a file system filled, 381
        // erases, the chip stood deaf some 12 s of wall time, its clock stopped).
        paceOffset -= now() - t;
        continue;
      }
      if (core.waiting) {
        let dt = clock.nanosToNextAlarm;
        const freeRun = waitUntil >= 0;
        let limit = freeRun ? waitUntil - t : wallNs() - paceOffset - t;
        if (held && !freeRun) {
          // a frame going out on the LED chain, a USB or DMA transfer: they finish
          if (pioBusy()) limit = 20e3;
          else limit = transferDue();
        }
        if (!dt || dt > limit) dt = limit; // gap 2: no alarm (or a far one): let time pass
        if (dt <= 0) {
          paced = !freeRun;
          break;
        }
        const asleep = now();
        idle(dt);
        if (helloAt < 0) idleToHello += now() - asleep;
        if (waitUntil >= 0 && now() >= waitUntil) runQueue();
        continue;
      }
      const cycles = core.executeInstruction();
      clock.tick(cycles * NS_PER_CYCLE);
      stepPio(cycles);
    }
    if (waitUntil >= 0 && now() >= waitUntil) runQueue();
    if (paced) break;
  }
  latchIfQuiet();
  // An idle core may not run ahead of the wall clock, and need not catch up more than
  // 50 ms of it after running slow or free.
  const lag = wallNs() - paceOffset - now();
  if (lag > 50e6 || waitUntil >= 0) paceOffset = wallNs() - now() - (waitUntil >= 0 ? 0 : 50e6);
  if (paced) setTimeout(run, 1);
  else setImmediate(run);
}

// ---- start ------------------------------------------------------------------------------

boot();
paceOffset = wallNs() - now();

process.stdin.on('data', (data) => {
  if (!connected) return; // no port on the host yet: nothing can be sent
  frozen = false;
  serialIn.push(data);
  serialInLen += data.length;
  serialStats.arrivedAt = now();
  feedSerial();
});
process.stdin.on('end', () => process.exit(0));

if (args.control !== null) {
  control = new net.Socket({ fd: Number(args.control), readable: true, writable: true });
  let buf = '';
  control.on('data', (data) => {
    buf += data.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) queue.push({ words: line.split(/\s+/) });
    }
    runQueue();
  });
  control.on('error', () => {});
} else {
  control = { write() {} }; // no control channel: a bare Pico on USB
}

if (process.env.PICO_DEBUG) {
  setInterval(() => {
    process.stderr.write(`t=${(now() / 1e6).toFixed(1)}ms pc=${mcu.core.PC.toString(16)} waiting=${mcu.core.waiting} usb=${connected} pend=${pendingRead} flashops=${flashOps}\n`);
  }, 1000);
}

run();
