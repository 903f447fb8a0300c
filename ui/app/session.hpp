// Sessions (File ▸ Save session… / Open session…): one JSON file with what a day's work set up:
// the open file (its absolute path, and its path relative to the session file: whichever exists
// is opened, else the file of that name beside the session) and its dataset roles, the mask
// editor's geometry, partition, shapes and painted pixels, each parameter form's values, the device
// and each panel's chosen variant (user:NAME too; one that cannot be chosen here is said in the
// Log), and the window layout (base64 of QMainWindow::saveState). The last session saved or opened
// is opened again on start when the user wants it (setting "session/restoreOnStart", off by
// default). Closing the window with unsaved mask edits asks first: Save (a session), Discard or
// Cancel.
#pragma once
#include <QMessageBox>
#include <QObject>
#include <functional>
#include <nlohmann/json.hpp>

namespace clscope::ui {

class MainWindow;
class MaskEditorPresenter;

// The mask editor's part of a session and back (ui/app/session_mask.cpp); fromJson needs
// an image of the same size shown and throws InputError otherwise.
nlohmann::json maskToJson(const MaskEditorPresenter& editor);
void maskFromJson(MaskEditorPresenter& editor, const nlohmann::json& json);

class SessionManager : public QObject {
    Q_OBJECT
  public:
    explicit SessionManager(MainWindow& window);

    // `sessionPath`: where it is saved (the file's path is stored relative to it too).
    nlohmann::json capture(const QString& sessionPath = {}) const;
    // Errors (InputError, UsageError) name what could not be restored; what came before stays.
    // `sessionPath`: where it was read (relative paths are looked for beside it).
    void apply(const nlohmann::json& session, const QString& sessionPath = {});
    // Files; errors are thrown naming the file. Both make the mask edits count as saved.
    void save(const QString& path);
    void open(const QString& path);
    // The File menu's dialogs; errors go to a message box and the Log. save: whether it saved.
    bool saveDialog();
    void openDialog();

    bool restoreOnStart() const;
    void setRestoreOnStart(bool on);
    // On start: the last session, when the setting says so and it is still there.
    void restoreLastIfWanted();

    // Whether the window may close: no unsaved mask edits, or the user chose Save (and saved)
    // or Discard. ask is the question (a QMessageBox; tests answer it themselves).
    bool confirmClose();
    using Ask = std::function<QMessageBox::StandardButton(const QString& text)>;
    void setAsk(Ask ask) { ask_ = std::move(ask); }

  private:
    void applyVariants(const nlohmann::json& variants);
    void applyData(const nlohmann::json& session, const QString& sessionPath);
    void applyParameters(const nlohmann::json& parameters);
    void remember(const QString& path);
    MainWindow& window_;
    Ask ask_;
};

} // namespace clscope::ui
