#!/usr/bin/env bash
# Generates the Numbers Left clips: packages/web/public/audio/{1..100}.m4a, each speaking its
# number in English (AAC-LC, mono, 22.05 kHz, 48 kbit/s, a few KB each). The clips are committed;
# run this only to regenerate them. Needs Debian's espeak-ng and ffmpeg:
#   apt-get install -y espeak-ng ffmpeg
set -euo pipefail

for tool in espeak-ng ffmpeg; do
  command -v "$tool" >/dev/null || {
    echo "missing $tool: apt-get install -y espeak-ng ffmpeg" >&2
    exit 1
  }
done

out="$(cd "$(dirname "$0")/.." && pwd)/packages/web/public/audio"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Trim the silence at both ends, so the voice starts as the number appears on screen.
trim="silenceremove=start_periods=1:start_threshold=-50dB,areverse,silenceremove=start_periods=1:start_threshold=-50dB,areverse"

for n in $(seq 1 100); do
  # A slightly slow, clear voice saying the number as words ("forty-two"), once.
  espeak-ng -v en-us -s 135 -g 4 -a 180 -w "$work/$n.wav" "$n"
  # Raise the peak to -1 dBFS so every clip plays at the same level at the page's volume of 0.7
  # (loudness normalisation needs longer input than one spoken number).
  peak=$(ffmpeg -hide_banner -i "$work/$n.wav" -af "$trim,volumedetect" -f null - 2>&1 |
    sed -n 's/.*max_volume: \(-\{0,1\}[0-9.]*\) dB.*/\1/p')
  gain=$(awk -v p="$peak" 'BEGIN { printf "%.1f", -1 - p }')
  ffmpeg -loglevel error -y -i "$work/$n.wav" \
    -af "$trim,volume=${gain}dB,apad=pad_dur=0.15" \
    -ac 1 -ar 22050 -c:a aac -b:a 48k -movflags +faststart -map_metadata -1 -fflags +bitexact \
    "$out/$n.m4a"
done
echo "wrote 100 clips to $out"
