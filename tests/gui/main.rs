//! The front ends, tested as a user meets them: `buffgreen gui` driven in headless Chromium
//! through chromedriver (WebDriver), and `buffgreen play` through a pipe. The browser tests
//! skip, with one line, only when /usr/bin/chromium or chromedriver is missing (.ci/run
//! installs Debian's `chromium` and `chromium-driver`).

mod browser;
mod play;
mod playing;
mod robust;
