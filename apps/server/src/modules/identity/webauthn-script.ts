/**
 * The browser side of WebAuthn, served at /api/.ory/.well-known/ory/webauthn.js as Kratos
 * serves its own: `webauthn_register_trigger` and `webauthn_login_trigger` nodes call these
 * functions with the ceremony options; the result is put, as JSON with base64url fields,
 * into the `webauthn_register` / `webauthn_login` input and the form is submitted.
 */
export const WEBAUTHN_SCRIPT = `(function () {
  function toBuffer(value) {
    var base64 = value.replace(/-/g, '+').replace(/_/g, '/');
    while (base64.length % 4) base64 += '=';
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }
  function toBase64Url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function submit(name, value) {
    var input = document.querySelector('input[name="' + name + '"]');
    if (!input) return;
    input.value = JSON.stringify(value);
    var form = input.closest('form');
    if (!form) return;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }
  window.__oryWebAuthnRegistration = function (options) {
    var publicKey = Object.assign({}, options.publicKey);
    publicKey.challenge = toBuffer(publicKey.challenge);
    publicKey.user = Object.assign({}, publicKey.user, { id: toBuffer(publicKey.user.id) });
    publicKey.excludeCredentials = (publicKey.excludeCredentials || []).map(function (c) { return Object.assign({}, c, { id: toBuffer(c.id) }); });
    return navigator.credentials.create({ publicKey: publicKey }).then(function (credential) {
      submit('webauthn_register', {
        id: credential.id,
        rawId: toBase64Url(credential.rawId),
        type: credential.type,
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
        response: {
          clientDataJSON: toBase64Url(credential.response.clientDataJSON),
          attestationObject: toBase64Url(credential.response.attestationObject),
          transports: credential.response.getTransports ? credential.response.getTransports() : []
        }
      });
    });
  };
  window.__oryWebAuthnLogin = function (options) {
    var publicKey = Object.assign({}, options.publicKey);
    publicKey.challenge = toBuffer(publicKey.challenge);
    publicKey.allowCredentials = (publicKey.allowCredentials || []).map(function (c) { return Object.assign({}, c, { id: toBuffer(c.id) }); });
    return navigator.credentials.get({ publicKey: publicKey }).then(function (credential) {
      submit('webauthn_login', {
        id: credential.id,
        rawId: toBase64Url(credential.rawId),
        type: credential.type,
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
        response: {
          clientDataJSON: toBase64Url(credential.response.clientDataJSON),
          authenticatorData: toBase64Url(credential.response.authenticatorData),
          signature: toBase64Url(credential.response.signature),
          userHandle: credential.response.userHandle ? toBase64Url(credential.response.userHandle) : undefined
        }
      });
    });
  };
})();
`;
