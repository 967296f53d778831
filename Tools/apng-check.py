#!/usr/bin/env python3
"""Checks an animated PNG against the frames it was made from, in two players.

    terrapin frames SCENE --fps 10 --duration 4 --apng anim.png
    terrapin frames SCENE --fps 10 --duration 4 -o frames/
    python3 Tools/apng-check.py anim.png frames/

Pillow decodes every frame (dispose and blend applied) and each must equal frames/frame_NNNNN.png
pixel for pixel; then headless Chromium (through its DevTools protocol, in real time) shows the
image and four screenshots must each equal some frame, not all the same one. Needs Pillow and
websocket-client from PyPI and Debian's chromium; tooling only, not part of make test.
"""
import base64, glob, json, subprocess, sys, tempfile, time, urllib.request
from PIL import Image

apng, folder = sys.argv[1], sys.argv[2]
refs = [Image.open(p).convert("RGBA") for p in sorted(glob.glob(folder + "/frame_*.png"))]
im = Image.open(apng)
assert im.n_frames == len(refs), f"{im.n_frames} frames, {len(refs)} references"
for i in range(im.n_frames):
    im.seek(i)
    assert im.convert("RGBA").tobytes() == refs[i].tobytes(), f"Pillow: frame {i} differs"
print(f"Pillow: {im.n_frames} frames, each equal to its reference")

import websocket
width, height = refs[0].size
page = tempfile.NamedTemporaryFile("w", suffix=".html", delete=False)
page.write(f'<html><body style="margin:0"><img src="file://{__import__("os").path.abspath(apng)}"></body></html>')
page.close()
browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--remote-debugging-port=9333", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(50):
        try:
            tabs = json.load(urllib.request.urlopen("http://127.0.0.1:9333/json")); break
        except OSError:
            time.sleep(0.2)
    ws = websocket.create_connection(tabs[0]["webSocketDebuggerUrl"], suppress_origin=True)
    n = 0
    def call(method, **params):
        global n
        n += 1
        ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            r = json.loads(ws.recv())
            if r.get("id") == n:
                return r.get("result")
    call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    call("Page.enable")
    call("Page.navigate", url="file://" + page.name)
    time.sleep(0.3)
    shown = []
    for _ in range(4):
        shot = Image.open(__import__("io").BytesIO(base64.b64decode(call("Page.captureScreenshot", format="png")["data"]))).convert("RGBA")
        match = [i for i, r in enumerate(refs) if r.tobytes() == shot.tobytes()]
        assert match, "Chromium: a screenshot equal to no frame"
        shown.append(match[0])
        time.sleep(0.7)
    assert len(set(shown)) > 1, f"Chromium showed only frame {shown[0]}"
    print(f"Chromium: screenshots 0.7 s apart showed frames {shown}, each pixel-equal")
finally:
    browser.terminate()
