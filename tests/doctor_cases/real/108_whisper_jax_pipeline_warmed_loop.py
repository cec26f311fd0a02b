# source: https://github.com/sanchit-gandhi/whisper-jax/issues/5
# title: Recreate Results on A100
# established-by: maintainer sanchit-gandhi
# cause: The maintainer's answer: 'This looks more or less correct!'; the slower transcription comes from the audio (Whisper can get caught in a hallucination in one batch and generate to the maximum length of 448 tokens), a cause outside the timing that the catalogue has no code for. The timing is sound: the pipeline is called once to compile before the clock starts, each timed call returns text, so every call has finished when it returns, and ten calls are timed together. Its one fault is the clock, time.time().
# static: LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the thread did not discuss it)
# lines: LB105:26/30
# first-sight: c3b020c 2026-12-02 py: found LB105:26; missed none; false none | notebook: found LB105:26; missed none; false none

from whisper_jax import FlaxWhisperPipline
import jax.numpy as jnp
import time 
import librosa

SAMPLING_RATE = 16000
audio, sr = librosa.load('test_audio.mp3', sr=SAMPLING_RATE)

# instantiate pipeline in bfloat16
pipeline = FlaxWhisperPipline("openai/whisper-large-v2", dtype=jnp.float16, batch_size=32)

print("Warmup compiling forward pass")
text = pipeline(audio)


start_time = time.time()
for i in range(10):
    print(f"Go iter {i}")
    text = pipeline(audio)
end_time = time.time()
print(text)
print(f"Took {end_time - start_time} s")

# Took 330.93562269210815 s
