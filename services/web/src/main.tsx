import { render } from "preact";
import { App } from "./app";
import { t } from "./i18n";
import "./styles.css";

document.title = t("app.title");
render(<App />, document.getElementById("app")!);
