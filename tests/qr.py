"""Reading a QR code back in tests, as a phone's camera app would."""

from __future__ import annotations

import cv2
import numpy as np


def decode_qr(image: np.ndarray) -> str:
    """The text of the QR code in ``image`` (grey, uint8), or "" when OpenCV reads none.

    OpenCV 5.1's classic ``QRCodeDetector`` misses about 3 % of pixel-sharp codes that any phone
    reads (30 of 1,000 random invite addresses drawn by ``games.invite.qr_png``; a slight blur
    or another scale reads them), so a miss there is retried with OpenCV's other QR reader,
    ``QRCodeDetectorAruco``, which read all 1,000. Either reader still has to return exactly the
    address: a wrong code cannot pass.
    """
    assert image.ndim == 2 and image.dtype == np.uint8, (image.shape, image.dtype)
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        text, points, _ = detector.detectAndDecode(image)
        if text:
            return text
    return ""
