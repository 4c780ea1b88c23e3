/** Whether the browser has the Web Speech API. Firefox ships none, so Jawad offers Whisper there. */
export function speechRecognitionAvailable(): boolean {
  return 'SpeechRecognition' in globalThis || 'webkitSpeechRecognition' in globalThis;
}
