//! `backend send-test-email`: one message through the configured relay to `LEAD_EMAIL_TO`, and
//! what the relay answered, so e-mail can be checked without posting a lead.

use crate::forward::Mailer;
use crate::settings::Config;

pub async fn run() -> Result<(), String> {
    let config = Config::from_env().map_err(|e| e.to_string())?;
    let Some(email) = config.email else {
        return Err(
            "e-mail is not configured: set SMTP_URL, LEAD_EMAIL_TO and LEAD_EMAIL_FROM (README, Configuration)"
                .into(),
        );
    };
    let relay = email.relay.to_string();
    let to: Vec<String> = email.to.iter().map(ToString::to_string).collect();
    let mailer = Mailer::new(email, config.site)
        .map_err(|e| format!("cannot use the relay {relay}: {e}"))?;
    let reply = mailer
        .send_test()
        .await
        .map_err(|e| format!("the relay {relay} did not take the test message: {e}"))?;
    println!(
        "The relay {relay} accepted the test message to {}: {reply}",
        to.join(", ")
    );
    Ok(())
}
