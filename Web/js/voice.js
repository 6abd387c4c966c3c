// Voice messages: recording in the composer and playing in the bubble.
//
// Recording: press and hold the mic on touch (slide up or away to cancel, the hint says so,
// lift to send); on a desktop a click starts, a second click on send stops and sends, and
// the cancel button drops it. MediaRecorder writes Opus (WebM, or Ogg where that is what
// the browser has); an AnalyserNode drives the live level meter, and once recorded the
// waveform (64 values of 0–31) is computed from the decoded audio, or from the levels seen
// while recording when the browser cannot decode its own recording. Recordings stop by
// themselves just before the server's longest length (`maxVoiceSeconds` of `GET /v1/limits`,
// the server's --max-voice-seconds).
//
// Playing: one voice bubble plays at a time, with a progress bar over the waveform, the
// time, a speed switch (1×, 1.5×, 2×) and a dot on others' notes not played yet. The first
// play of someone else's note tells the server (`message.listened`).
import { h } from './dom.js';
import { icon } from './icons.js';
import { t } from './i18n.js';
import { toast } from './ui.js';
import { voiceLength } from './time.js';
import { serverLimits } from './store.js';
import { signedMediaURL } from './media.js';

/** The longest recording the server takes, in ms: a longer one would be refused. */
const maxVoiceMs = () => serverLimits().maxVoiceSeconds * 1000;
/**
 * A recording stops this long before the limit: the timer looks every 100 ms, and the
 * length the container records runs a little past the moment it is stopped.
 */
const STOP_MARGIN_MS = 300;
/** Shorter than this is a slip of the finger, not a message. */
const MIN_VOICE_MS = 700;
const WAVEFORM_LENGTH = 64;
const WAVEFORM_MAX = 31;
/** How far a finger slides off the mic before lifting it cancels. */
const CANCEL_DISTANCE = 70;
const SPEEDS = [1, 1.5, 2];
const SVG = 'http://www.w3.org/2000/svg';


function recordingType() {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm']) {
    if (MediaRecorder.isTypeSupported(type)) return type;
  }
  return null;
}

/** `values` (any length, any scale) as the fixed waveform: 64 bars of 0–31. */
export function shapeWaveform(values) {
  if (!values.length) return new Array(WAVEFORM_LENGTH).fill(0);
  const bars = [];
  for (let i = 0; i < WAVEFORM_LENGTH; i += 1) {
    const from = Math.floor((i * values.length) / WAVEFORM_LENGTH);
    const to = Math.max(from + 1, Math.floor(((i + 1) * values.length) / WAVEFORM_LENGTH));
    let sum = 0;
    for (let j = from; j < to && j < values.length; j += 1) sum += values[j];
    bars.push(sum / (to - from));
  }
  const peak = Math.max(...bars) || 1;
  return bars.map((v) => Math.max(0, Math.min(WAVEFORM_MAX, Math.round((v / peak) * WAVEFORM_MAX))));
}

async function decodedWaveform(blob) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  const context = new Context();
  try {
    const audio = await context.decodeAudioData(await blob.arrayBuffer());
    const samples = audio.getChannelData(0);
    // Loudness per slice: the root mean square of its samples, at most 2,048 slices.
    const slices = Math.min(2048, samples.length);
    const size = Math.floor(samples.length / slices) || 1;
    const levels = [];
    for (let s = 0; s < slices; s += 1) {
      let sum = 0;
      for (let i = s * size; i < (s + 1) * size && i < samples.length; i += 1) sum += samples[i] * samples[i];
      levels.push(Math.sqrt(sum / size));
    }
    return shapeWaveform(levels);
  } catch {
    return null;
  } finally {
    context.close().catch(() => {});
  }
}

/**
 * The mic button and the recording bar for a composer. `send(blob, durationMs, waveform)` is
 * called with a finished recording; `onState(recording)` lets the composer hide its other
 * controls while recording.
 */
export function voiceRecorder({ send, onState }) {
  const mic = h('button', { type: 'button', class: 'icon-btn composer-btn voice-mic', 'aria-label': t('voice_record'), title: t('voice_record') }, icon('mic'));
  const dot = h('span', { class: 'voice-rec-dot', 'aria-hidden': 'true' });
  const timer = h('span', { class: 'voice-rec-time', role: 'timer', text: '0:00' });
  const meter = h('span', { class: 'voice-rec-meter', 'aria-hidden': 'true' });
  const hint = h('span', { class: 'voice-rec-hint' });
  const cancel = h('button', { type: 'button', class: 'btn btn-small voice-rec-cancel', text: t('voice_cancel') });
  const done = h('button', { type: 'button', class: 'send-btn voice-rec-send', 'aria-label': t('voice_send'), title: t('voice_send') }, icon('send', { size: 20 }));
  const bar = h('div', { class: 'voice-rec', hidden: true, role: 'status', 'aria-live': 'polite' }, dot, timer, meter, hint, cancel, done);

  let session = null;

  function paint() {
    if (!session) return;
    const elapsed = performance.now() - session.started;
    timer.textContent = `${voiceLength(Math.min(elapsed, maxVoiceMs()))} / ${voiceLength(maxVoiceMs())}`;
    const level = session.levels.length ? session.levels[session.levels.length - 1] : 0;
    meter.style.setProperty('--level', String(Math.min(1, level * 4)));
    if (session.touch) hint.textContent = session.cancelling ? t('voice_release_cancel') : t('voice_slide_cancel');
    else hint.textContent = t('voice_click_send');
    bar.classList.toggle('is-cancelling', Boolean(session.cancelling));
    if (elapsed >= maxVoiceMs() - STOP_MARGIN_MS) finish(true);
  }

  async function start(touch, origin = null) {
    if (session) return;
    const type = recordingType();
    if (!type || !navigator.mediaDevices?.getUserMedia) {
      toast(t('voice_unsupported'), 'error');
      return;
    }
    const pending = { touch, origin, cancelling: false, levels: [], chunks: [], started: performance.now(), stopped: false };
    session = pending;
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      session = null;
      toast(t('voice_no_microphone'), 'error');
      return;
    }
    if (session !== pending || pending.stopped) {
      // Released (or cancelled) before the microphone opened.
      stream.getTracks().forEach((track) => track.stop());
      if (session === pending) session = null;
      return;
    }
    pending.stream = stream;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (Context) {
      pending.context = new Context();
      const analyser = pending.context.createAnalyser();
      analyser.fftSize = 512;
      pending.context.createMediaStreamSource(stream).connect(analyser);
      const data = new Float32Array(analyser.fftSize);
      pending.sample = () => {
        analyser.getFloatTimeDomainData(data);
        let sum = 0;
        for (const v of data) sum += v * v;
        pending.levels.push(Math.sqrt(sum / data.length));
      };
    }
    pending.recorder = new MediaRecorder(stream, { mimeType: type });
    pending.recorder.addEventListener('dataavailable', (event) => { if (event.data.size) pending.chunks.push(event.data); });
    pending.recorder.start();
    pending.started = performance.now();
    pending.tick = setInterval(() => { pending.sample?.(); paint(); }, 100);
    bar.hidden = false;
    bar.classList.toggle('is-touch', touch);
    mic.classList.add('is-recording');
    onState?.(true);
    paint();
  }

  function release(pending) {
    clearInterval(pending.tick);
    pending.stream?.getTracks().forEach((track) => track.stop());
    pending.context?.close().catch(() => {});
    bar.hidden = true;
    mic.classList.remove('is-recording');
    onState?.(false);
  }

  /** Stops the recording; sends it unless cancelled or too short. */
  function finish(keep) {
    const pending = session;
    if (!pending) return;
    session = null;
    pending.stopped = true;
    if (!pending.recorder) return;        // the microphone had not opened yet
    const durationMs = Math.round(performance.now() - pending.started);
    pending.recorder.addEventListener('stop', async () => {
      release(pending);
      if (!keep) return;
      if (durationMs < MIN_VOICE_MS) {
        toast(t('voice_too_short'));
        return;
      }
      const blob = new Blob(pending.chunks, { type: pending.recorder.mimeType.split(';')[0] });
      const waveform = (await decodedWaveform(blob)) || shapeWaveform(pending.levels);
      send(blob, Math.min(durationMs, maxVoiceMs()), waveform);
    }, { once: true });
    pending.recorder.stop();
  }

  // Touch: hold to record, lift to send, slide away to cancel.
  mic.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    event.preventDefault();
    mic.setPointerCapture?.(event.pointerId);
    start(true, { x: event.clientX, y: event.clientY });
  });
  // On the window, not the mic: the finger may leave the button (that is how one cancels).
  const onMove = (event) => {
    if (event.pointerType !== 'touch' || !session?.touch || !session.origin) return;
    const dx = event.clientX - session.origin.x;
    const dy = event.clientY - session.origin.y;
    session.cancelling = Math.hypot(dx, dy) > CANCEL_DISTANCE;
    paint();
  };
  window.addEventListener('pointermove', onMove);
  const lift = (event) => {
    if (event.pointerType !== 'touch' || !session?.touch) return;
    finish(!session.cancelling && event.type === 'pointerup');
  };
  window.addEventListener('pointerup', lift);
  window.addEventListener('pointercancel', lift);
  mic.addEventListener('contextmenu', (event) => event.preventDefault());
  // Mouse and keyboard: a click starts; send or cancel end it.
  mic.addEventListener('click', (event) => {
    if (event.pointerType === 'touch' || (event.detail && session?.touch)) return;
    if (session) finish(true);
    else start(false);
  });
  cancel.addEventListener('click', () => finish(false));
  done.addEventListener('click', () => finish(true));
  bar.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      finish(false);
    }
  });

  return {
    mic,
    bar,
    /** Drops a recording in progress (the conversation closed). */
    cancel: () => finish(false),
    /** Removes the window listeners (the dialogue view went away). */
    destroy() {
      finish(false);
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', lift);
      window.removeEventListener('pointercancel', lift);
    },
  };
}

// ---- Playing ----

let playing = null;   // { audio, stop } of the bubble playing now

/**
 * The inside of a voice bubble. `listened` says whether the dot is gone; `onFirstPlay` is
 * called once when someone else's unplayed note starts.
 */
export function voiceBubble(message, { mine, src, listened, onFirstPlay }) {
  const voice = message.voice || {};
  const durationMs = voice.durationMs || 0;
  const values = (voice.waveform || []).length ? voice.waveform : new Array(WAVEFORM_LENGTH).fill(4);
  // Shown as 32 bars (the louder of each pair), narrow enough for a phone's bubble.
  const bars = [];
  for (let i = 0; i < values.length; i += 2) bars.push(Math.max(values[i], values[i + 1] ?? 0));
  const playButton = h('button', { type: 'button', class: 'voice-play', 'aria-label': t('voice_play') }, icon('play', { size: 18 }));
  // An SVG that stretches to the room the bubble has, so a note fits a phone's bubble.
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${bars.length * 3} 26`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  const barEls = bars.map((v, i) => {
    const height = Math.max(2, Math.round((v / WAVEFORM_MAX) * 26));
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(i * 3));
    rect.setAttribute('y', String((26 - height) / 2));
    rect.setAttribute('width', '2');
    rect.setAttribute('height', String(height));
    rect.setAttribute('class', 'voice-bar');
    svg.appendChild(rect);
    return rect;
  });
  const wave = h('span', { class: 'voice-wave', role: 'progressbar', 'aria-label': t('voice_progress'), 'aria-valuemin': '0', 'aria-valuemax': String(Math.round(durationMs / 1000)), 'aria-valuenow': '0' }, svg);
  const time = h('span', { class: 'voice-time', text: voiceLength(durationMs) });
  let speedIndex = 0;
  const speed = h('button', { type: 'button', class: 'voice-speed', 'aria-label': t('voice_speed'), title: t('voice_speed'), text: '1×' });
  const dot = !mine && !listened ? h('span', { class: 'voice-unplayed', role: 'img', 'aria-label': t('voice_unplayed') }) : null;
  const box = h('div', { class: 'voice', dataset: { durationMs: String(durationMs) } }, playButton, wave, time, dot, speed);

  let audio = null;
  let frame = 0;
  let told = listened || mine;

  function progress() {
    if (!audio) return;
    // A live WebM recording has no length in its header: the message's length is used.
    const total = Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration * 1000 : durationMs;
    const share = total ? Math.min(1, (audio.currentTime * 1000) / total) : 0;
    const played = Math.round(share * barEls.length);
    barEls.forEach((bar, index) => bar.classList.toggle('is-played', index < played));
    wave.setAttribute('aria-valuenow', String(Math.round(audio.currentTime)));
    time.textContent = audio.paused && share === 0 ? voiceLength(durationMs) : voiceLength(audio.currentTime * 1000);
    if (!audio.paused) frame = requestAnimationFrame(progress);
  }

  function paintButton(isPlaying) {
    playButton.replaceChildren(icon(isPlaying ? 'pause' : 'play', { size: 18 }));
    playButton.setAttribute('aria-label', isPlaying ? t('voice_pause') : t('voice_play'));
    box.classList.toggle('is-playing', isPlaying);
  }

  function stop() {
    if (!audio) return;
    audio.pause();
  }

  let renewed = false;
  playButton.addEventListener('click', async (event) => {
    event.stopPropagation();
    if (!src) return;
    if (!audio) {
      // Our uploads through a signed link (media.js); a local preview as it is.
      let link;
      try {
        link = await signedMediaURL(src);
      } catch {
        toast(t('voice_unavailable'), 'error');
        return;
      }
      if (audio) return; // a second click while the link was on its way
      audio = new Audio(link);
      audio.preload = 'auto';
      audio.addEventListener('play', () => { paintButton(true); progress(); });
      audio.addEventListener('pause', () => { paintButton(false); cancelAnimationFrame(frame); progress(); });
      audio.addEventListener('ended', () => {
        paintButton(false);
        barEls.forEach((bar) => bar.classList.remove('is-played'));
        time.textContent = voiceLength(durationMs);
        if (playing?.audio === audio) playing = null;
      });
      audio.addEventListener('error', () => {
        // A link that expired while the chat was open is renewed once, where it stopped.
        if (!renewed && src.startsWith('/v1/media/')) {
          renewed = true;
          const at = audio.currentTime;
          signedMediaURL(src, { fresh: true }).then((fresh) => {
            audio.src = fresh;
            audio.currentTime = at;
            audio.play().catch(() => {});
          }, () => { paintButton(false); toast(t('voice_unavailable'), 'error'); });
          return;
        }
        paintButton(false);
        toast(t('voice_unavailable'), 'error');
      });
    }
    if (!audio.paused) {
      audio.pause();
      return;
    }
    if (playing && playing.audio !== audio) playing.stop();
    playing = { audio, stop };
    audio.playbackRate = SPEEDS[speedIndex];
    audio.play().catch(() => {});
    if (!told) {
      told = true;
      dot?.remove();
      onFirstPlay?.();
    }
  });
  speed.addEventListener('click', (event) => {
    event.stopPropagation();
    speedIndex = (speedIndex + 1) % SPEEDS.length;
    speed.textContent = `${SPEEDS[speedIndex]}×`;
    if (audio) audio.playbackRate = SPEEDS[speedIndex];
  });
  return box;
}
