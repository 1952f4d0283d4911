"""The messages pages quote, which the search box recognises when a reader pastes one
(pytorch_notes.site.searchmessages; the browser side is tested in tests/browser/test_reader_paths.py)."""

from __future__ import annotations

from collections import Counter

from pytorch_notes.site import searchmessages, searchwords


def test_messages_are_quoted_errors_and_sentences_not_code():
    docs = [{"text": "<p>If you see <code>AssertionError: Torch not compiled with CUDA enabled</code>, the wheel "
                     "has no CUDA. <code>x = torch.zeros(3)</code> and <code>for xb, yb in loader</code> are code; "
                     "<code>Expected all tensors to be on the same device</code>.</p>"},
            {"text": "<pre><code>RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x3 and 4x2)\n"
                     "tensor([1., 2.])</code></pre><p><code>a b</code></p>"}]
    found = searchmessages.messages(docs)
    assert found == sorted(found) and len(found) == len(set(found))
    assert "torch not compiled with cuda enabled" in found, found  # the text after the error's class name
    assert "expected all tensors to be on the same device" in found
    assert "mat1 and mat2 shapes cannot be multiplied and" in found, "numbers and shapes leave a message"
    assert not [m for m in found if "zeros" in m or "loader" in m or "tensor" == m], found


def test_the_vocabulary_script_carries_the_messages():
    script = searchwords.vocabulary_script(Counter({"张量": 3}), frozenset({"的"}), ["expected all tensors"])
    assert 'window.__pnMessages=["expected all tensors"]' in script
