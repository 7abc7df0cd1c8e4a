import assert from 'node:assert/strict';
import { LineInput, asksForSecret, terminalText } from '../../src/ui/login/line-input';

describe('the login terminal line discipline (W15)', () => {
  it('W15 echoes keys, takes back a character on Backspace, and hands the plugin whole lines only on Enter', () => {
    const input = new LineInput();
    assert.deepEqual(input.feed('WXYZ-12'), { echo: 'WXYZ-12', lines: [] });
    assert.deepEqual(input.feed('3\x7f4'), { echo: '3\b \b4', lines: [] }, 'a mistyped digit taken back');
    assert.deepEqual(input.feed('\r'), { echo: '\r\n', lines: ['WXYZ-124\n'] });
    assert.deepEqual(input.feed('\x7f'), { echo: '', lines: [] }, 'nothing to take back on an empty line');
    assert.deepEqual(input.feed('a\x1b[Ab\x1bOH\x1b[1;5C\rc'), { echo: 'ab\r\nc', lines: ['ab\n'] }, 'arrows, Home and Ctrl+Right are not text');
  });

  it('W15 echoes * for what is typed after a prompt that asks for a secret, and shows the plugin\'s line breaks as a terminal needs them', () => {
    const input = new LineInput();
    input.hidden = asksForSecret('Enter your password: ');
    assert.deepEqual(input.feed('hunter2\r'), { echo: '*******\r\n', lines: ['hunter2\n'] });
    assert.equal(asksForSecret('To sign in, open https://login.example.test/device and enter the code ABCD.\nCode: '), false);
    assert.equal(terminalText('one\ntwo\r\nthree'), 'one\r\ntwo\r\nthree');
  });
});
